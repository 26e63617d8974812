/** What a file must be before it is uploaded (the uploads themselves: the data provider's `upload`, adapters/transfer.ts). */

/** What the server accepts (spec 000 §9): 2048 KB for pictures and for firmware files. */
export const UPLOAD_LIMIT_KB = 2048;

/** The file's extension in lower case, without the dot. */
export const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '');

/** The spreadsheets the imports read. */
export const SHEET_ACCEPT = '.xlsx,.xls';
export const isSheet = (name: string) => ['xlsx', 'xls'].includes(extensionOf(name));

const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'];

/** Why a picture would be refused (the i18n key of the spec's warning), before it is sent; null when it may go. */
export function imageProblem(file: File): 'upload.badFormat' | 'upload.tooLarge' | null {
  if (!IMAGE_EXTENSIONS.includes(extensionOf(file.name))) return 'upload.badFormat';
  if (file.size > UPLOAD_LIMIT_KB * 1024) return 'upload.tooLarge';
  return null;
}
