/// <reference types="astro/client" />

interface ImportMetaEnv {
  /** Absolute path of the content folder, defined by astro.config.mjs. */
  readonly REVIEWS_CONTENT_DIR: string;
  /** The `{base_url}` (an origin, maybe with a path), normalised by core/config.ts (no trailing slash). */
  readonly REVIEWS_PUBLIC_URL: string;
  /** The publication scripts/build.ts computed for this build (scripts/build.ts); empty when run by hand. */
  readonly REVIEWS_PUBLICATION_FILE: string;
  /** True when the content is the project's demo (examples/demo): the layout shows a banner. */
  readonly REVIEWS_DEMO: boolean;
}
