/**
 * Sign-off (spec 001 §4), shared by the console's dialog and the server's check: the longest handling
 * note either accepts, and the sign-off's answers as the server words them. The server refuses with
 * these texts, and the console shows them in its own language by reading them back to its catalogue
 * (app/components/signOffText.ts).
 */
export const NOTE_MAX = 500;
/** The most alarms one batch sign-off takes. */
export const BATCH_MAX = 100;

/** Every sign-off (alarm, one-touch alert, identity-card warning, feedback). */
export const SIGN_MESSAGES = {
  noteRequired: '处理备注不能为空',
  noteTooLong: `处理备注不能超过${NOTE_MAX}个字符`,
  notFound: '数据不存在或无权操作',
  signed: '签收成功',
};

/** An alarm's or a one-touch alert's sign-off, one at a time or several at once. */
export const ALARM_SIGN_MESSAGES = {
  alarmIdRequired: '报警编号不能为空',
  alarmSigned: '该报警已签收，请勿重复签收',
  alarmIdsRequired: '请选择要签收的报警',
  alarmTooMany: `一次最多签收${BATCH_MAX}条报警`,
};

/** A feedback's sign-off. */
export const FEEDBACK_SIGN_MESSAGES = {
  feedbackIdRequired: '反馈编号不能为空',
  feedbackSigned: '该反馈已签收，请勿重复签收',
};
