/** What the security domain lets the other domains use; nothing else of it is reached from outside. */
export { scope as alarmScope } from './alarm';
export { recordSecurityEvent, type AlarmEvent } from './alarmEvents';
export { personDetail, profileInfo } from './intel';
