/** Texts of the app-version package upload (spec 001 §2.9, §5). */
export default {
  'zh-CN': {
    appVersion: {
      chooseFile: '上传文件',
      replaceFile: '重新上传',
      noFile: '未上传文件',
      fileHint: '支持 apk、ipa、png，不超过200M',
      uploaded: '上传成功',
      badFormat: '文件格式不正确，请上传apk或ipa格式的文件',
      tooLarge: '超出大小限制，不能超过200M',
      download: '下载',
    },
  },
  'zh-TW': {
    appVersion: {
      chooseFile: '上傳檔案',
      replaceFile: '重新上傳',
      noFile: '未上傳檔案',
      fileHint: '支援 apk、ipa、png，不超過200M',
      uploaded: '上傳成功',
      badFormat: '檔案格式不正確，請上傳apk或ipa格式的檔案',
      tooLarge: '超出大小限制，不能超過200M',
      download: '下載',
    },
  },
  'en-US': {
    appVersion: {
      chooseFile: 'Upload file',
      replaceFile: 'Upload again',
      noFile: 'No file uploaded',
      fileHint: 'apk, ipa or png, at most 200M',
      uploaded: 'Uploaded',
      badFormat: 'File format incorrect: upload an apk or ipa file',
      tooLarge: 'Exceeds size limit, cannot exceed 200M',
      download: 'Download',
    },
  },
};
