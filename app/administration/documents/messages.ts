/** Labels of the document screens' filters over several fields. */
export default {
  'zh-CN': { resources: { reminderRecord: { filters: { keyword: '标题/内容' } }, platformFeedback: { filters: { content: '反馈内容' } } } },
  'zh-TW': { resources: { reminderRecord: { filters: { keyword: '標題/內容' } }, platformFeedback: { filters: { content: '回饋內容' } } } },
  'en-US': { resources: { reminderRecord: { filters: { keyword: 'Title or content' } }, platformFeedback: { filters: { content: 'Content' } } } },
};
