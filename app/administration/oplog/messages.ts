/** Texts of the operation-log page. */
export default {
  'zh-CN': {
    oplog: {
      keyword: '操作人', keywordPlaceholder: '请输入操作人', begin: '开始时间', end: '结束时间', status: '请求状态', all: '全部',
      success: '成功', failure: '失败', message: '日志详情', logtype: '请求类型', logname: '日志类型', operator: '操作人', ip: 'IP地址',
      time: '操作时间', empty: '暂无日志', expand: '展开详情',
    },
  },
  'zh-TW': {
    oplog: {
      keyword: '操作人', keywordPlaceholder: '請輸入操作人', begin: '開始時間', end: '結束時間', status: '請求狀態', all: '全部',
      success: '成功', failure: '失敗', message: '日誌詳情', logtype: '請求類型', logname: '日誌類型', operator: '操作人', ip: 'IP位址',
      time: '操作時間', empty: '暫無日誌', expand: '展開詳情',
    },
  },
  'en-US': {
    oplog: {
      keyword: 'Operator', keywordPlaceholder: 'Operator name', begin: 'From', end: 'To', status: 'Status', all: 'All',
      success: 'Success', failure: 'Failure', message: 'Details', logtype: 'Method', logname: 'Log type', operator: 'Operator', ip: 'IP address',
      time: 'Time', empty: 'No log entries', expand: 'Show details',
    },
  },
};
