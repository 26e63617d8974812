/** Texts of the rental-house and tenant screens. */
export default {
  'zh-CN': {
    housing: { rooms: '房间', roomsOf: '%{name} 的房间' },
    tenant: {
      keyword: '姓名/手机号',
      keywordHint: '请输入姓名或手机号',
      disable: '禁用',
      enable: '启用',
      confirmDisable: '确定要禁用该租客吗？',
      confirmEnable: '确定要启用该租客吗？',
      statusChanged: '用户状态修改成功',
      statusFailed: '用户状态修改失败 %{message}',
      detail: '租客详情：%{name}',
      tabs: { basic: '基本信息', assets: '资产信息' },
      columns: { name: '姓名', phone: '手机号', idcard: '身份证号', gender: '性别', lease: '当前租住', status: '状态', lastLogin: '最后登录时间', actions: '操作' },
      fields: {
        fId: '用户ID', fChineseName: '姓名', fPhone: '手机号', fIdcard: '身份证号', fGender: '性别', fStatus: '状态', fEmail: '邮箱', fWorkUnit: '工作单位',
        fWorkAddress: '工作地址', lease: '当前租住', leaseAddress: '租住地址', fCreateTime: '注册时间', fLastloginDate: '最后登录时间',
      },
    },
  },
  'zh-TW': {
    housing: { rooms: '房間', roomsOf: '%{name} 的房間' },
    tenant: {
      keyword: '姓名/手機號',
      keywordHint: '請輸入姓名或手機號',
      disable: '停用',
      enable: '啟用',
      confirmDisable: '確定要停用該租客嗎？',
      confirmEnable: '確定要啟用該租客嗎？',
      statusChanged: '用戶狀態修改成功',
      statusFailed: '用戶狀態修改失敗 %{message}',
      detail: '租客詳情：%{name}',
      tabs: { basic: '基本資訊', assets: '資產資訊' },
      columns: { name: '姓名', phone: '手機號', idcard: '身分證號', gender: '性別', lease: '目前租住', status: '狀態', lastLogin: '最後登入時間', actions: '操作' },
      fields: {
        fId: '用戶ID', fChineseName: '姓名', fPhone: '手機號', fIdcard: '身分證號', fGender: '性別', fStatus: '狀態', fEmail: '郵箱', fWorkUnit: '工作單位',
        fWorkAddress: '工作地址', lease: '目前租住', leaseAddress: '租住地址', fCreateTime: '註冊時間', fLastloginDate: '最後登入時間',
      },
    },
  },
  'en-US': {
    housing: { rooms: 'Rooms', roomsOf: 'Rooms of %{name}' },
    tenant: {
      keyword: 'Name / phone',
      keywordHint: 'Enter a name or phone number',
      disable: 'Disable',
      enable: 'Enable',
      confirmDisable: 'Are you sure to disable this tenant?',
      confirmEnable: 'Are you sure to enable this tenant?',
      statusChanged: 'User status changed successfully',
      statusFailed: 'User status change failed %{message}',
      detail: 'Tenant: %{name}',
      tabs: { basic: 'Basic info', assets: 'Assets' },
      columns: { name: 'Name', phone: 'Phone', idcard: 'ID number', gender: 'Gender', lease: 'Current lease', status: 'Status', lastLogin: 'Last login', actions: 'Actions' },
      fields: {
        fId: 'User ID', fChineseName: 'Name', fPhone: 'Phone', fIdcard: 'ID number', fGender: 'Gender', fStatus: 'Status', fEmail: 'E-mail', fWorkUnit: 'Work unit',
        fWorkAddress: 'Work address', lease: 'Current lease', leaseAddress: 'Lease address', fCreateTime: 'Registered', fLastloginDate: 'Last login',
      },
    },
  },
};
