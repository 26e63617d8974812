/** What the platform domain lets the other domains use; nothing else of it is reached from outside. */
export { seedMessageTemplates, sendMessage, type MessageEvent } from './messageCentre';
export { SHEET_LIMIT_BYTES, SHEET_REASONS, XLSX_TYPE, cellText, checkRows, insertAll, isTooLarge, newWorkbook, openSheet, receiveSheet, refuseBadRows, templateBook, type SheetColumn } from './sheetImport';
export { handlingNote, refusalFor, signOne, signRows, type SignRefusals } from './signOff';
