export { LoginPasswordDialog, useLoginPassword, CHECK_PASSWORD_PATH } from './LoginPasswordDialog';
export { typeOf, isGateway, hasThresholds, isBreaker, send, PATHS, pathsFor, type SendResult } from './device';
export { ReadingsTable, LatestReadings, useReadings, type Readings, type ReadingColumn } from './readings';
export { DraftActions, useRowDrafts, type Draft } from './rowDrafts';
