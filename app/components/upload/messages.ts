/** Texts of the upload controls. Chinese wording follows the specification. */
export default {
  'zh-CN': {
    upload: {
      choose: '上传图片',
      replace: '更换图片',
      remove: '移除',
      hint: '支持 jpg、jpeg、png，不超过 2048 KB',
      imageSuccess: '图标上传成功',
      badFormat: '文件格式不正确',
      tooLarge: '超出文件大小限制',
      failed: '上传失败:%{message}',
      uploading: '上传中...',
    },
  },
  'zh-TW': {
    upload: {
      choose: '上傳圖片',
      replace: '更換圖片',
      remove: '移除',
      hint: '支援 jpg、jpeg、png，不超過 2048 KB',
      imageSuccess: '圖示上傳成功',
      badFormat: '檔案格式不正確',
      tooLarge: '超出檔案大小限制',
      failed: '上傳失敗:%{message}',
      uploading: '上傳中...',
    },
  },
  'en-US': {
    upload: {
      choose: 'Upload picture',
      replace: 'Replace picture',
      remove: 'Remove',
      hint: 'jpg, jpeg or png, at most 2048 KB',
      imageSuccess: 'Icon uploaded',
      badFormat: 'Unsupported file format',
      tooLarge: 'File exceeds the size limit',
      failed: 'Upload failed: %{message}',
      uploading: 'Uploading...',
    },
  },
};
