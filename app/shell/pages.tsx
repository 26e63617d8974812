/**
 * Hand-written pages a menu can name by component. A menu whose component is a key here opens the page
 * at `path`; `title` is an i18n key used for its tab and the document title.
 */
import type { ReactElement } from 'react';

export interface CustomPage {
  path: string;
  title: string;
  element: ReactElement;
}

export const customPages: Record<string, CustomPage> = {};
