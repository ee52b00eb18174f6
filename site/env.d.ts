/// <reference types="astro/client" />

interface ImportMetaEnv {
  /** Absolute path of the content folder, defined by astro.config.mjs. */
  readonly REVIEWS_CONTENT_DIR: string;
}
