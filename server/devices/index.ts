/** What the devices domain lets the other domains use; nothing else of it is reached from outside. */
export { scope as deviceScope } from './device';
export { devicesMatching, hasKeyword, matchingKeyword } from './deviceAccess';
