/** Texts of the people watch-list's template and import (spec 001 §2.6, §5). */
export default {
  'zh-CN': {
    controlPerson: {
      template: '模板下载',
      import: '批量导入',
      importing: '导入中...',
      imported: '导入成功，共 %{count} 条',
      importFailed: '导入失败',
      badFormat: '文件格式不正确，请上传xlsx或xls文件',
      tooLarge: '超出文件大小限制，不能超过2048KB',
    },
  },
  'zh-TW': {
    controlPerson: {
      template: '範本下載',
      import: '批次匯入',
      importing: '匯入中...',
      imported: '匯入成功，共 %{count} 筆',
      importFailed: '匯入失敗',
      badFormat: '檔案格式不正確，請上傳xlsx或xls檔案',
      tooLarge: '超出檔案大小限制，不能超過2048KB',
    },
  },
  'en-US': {
    controlPerson: {
      template: 'Download template',
      import: 'Import',
      importing: 'Importing...',
      imported: 'Imported %{count} people',
      importFailed: 'Import refused',
      badFormat: 'Incorrect file format: choose an xlsx or xls file',
      tooLarge: 'File exceeds the size limit of 2048 KB',
    },
  },
};
