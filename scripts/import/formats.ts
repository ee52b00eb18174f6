/** The import formats, in the order the usage text lists them: one row per format. */
import { csvFormat } from './csv.ts';
import { googleFormat } from './google.ts';
import type { ImportFormat } from './import-format.ts';
import { jsonFormat } from './service-json.ts';

export const IMPORT_FORMATS: readonly ImportFormat[] = [googleFormat, csvFormat, jsonFormat];
