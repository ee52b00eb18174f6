/** Where the pages' note on corrected counts links: the About page's "How the figures are made". */
import { PATHS } from '../../core/urls.ts';

export const FIGURES_NOTE_ID = 'figures';
export const FIGURES_NOTE_PATH = `${PATHS.about}#${FIGURES_NOTE_ID}`;
