/** Texts of the alarm lists, sign-off dialogs, the login summary and the one-touch alerts. */
export default {
  'zh-CN': {
    alarms: {
      area: { province: '省', city: '市', district: '区/县', street: '街道', community: '社区' },
      sign: {
        action: '签收',
        title: '报警签收',
        batchAction: '批量签收（%{count}）',
        batchTitle: '批量签收 %{count} 条报警',
        batchSummary: '已签收 %{signed} 条，失败 %{failed} 条',
      },
      photo: { action: '报警照片', view: '查看', title: '报警照片' },
      summary: {
        title: '您有 %{count} 条未签收报警',
        groups: { device: '设备报警', lock: '门锁报警', collect: '聚集预警', time: '时间段预警', roomCount: '房间人数预警', person: '人员预警', card: '身份证预警' },
      },
      touch: {
        userName: '用户姓名',
        idcard: '身份证号',
        phone: '手机号',
        notVerified: '未认证',
        pointTitle: '点位详情',
        signTitle: '一键报警签收',
      },
    },
  },
  'zh-TW': {
    alarms: {
      area: { province: '省', city: '市', district: '區/縣', street: '街道', community: '社區' },
      sign: {
        action: '簽收',
        title: '報警簽收',
        batchAction: '批量簽收（%{count}）',
        batchTitle: '批量簽收 %{count} 條報警',
        batchSummary: '已簽收 %{signed} 條，失敗 %{failed} 條',
      },
      photo: { action: '報警照片', view: '查看', title: '報警照片' },
      summary: {
        title: '您有 %{count} 條未簽收報警',
        groups: { device: '設備報警', lock: '門鎖報警', collect: '聚集預警', time: '時間段預警', roomCount: '房間人數預警', person: '人員預警', card: '身份證預警' },
      },
      touch: {
        userName: '用戶姓名',
        idcard: '身份證號',
        phone: '手機號',
        notVerified: '未認證',
        pointTitle: '點位詳情',
        signTitle: '一鍵報警簽收',
      },
    },
  },
  'en-US': {
    alarms: {
      area: { province: 'Province', city: 'City', district: 'District', street: 'Street', community: 'Community' },
      sign: {
        action: 'Sign off',
        title: 'Sign off alarm',
        batchAction: 'Sign off selected (%{count})',
        batchTitle: 'Sign off %{count} alarms',
        batchSummary: '%{signed} signed off, %{failed} failed',
      },
      photo: { action: 'Alarm photo', view: 'View', title: 'Alarm photo' },
      summary: {
        title: 'You have %{count} unsigned alarms',
        groups: { device: 'Device', lock: 'Door lock', collect: 'Gathering', time: 'Time-based', roomCount: 'Room count', person: 'Person', card: 'ID card' },
      },
      touch: {
        userName: 'User name',
        idcard: 'ID card',
        phone: 'Phone',
        notVerified: 'Not verified',
        pointTitle: 'Point details',
        signTitle: 'Sign off one-touch alert',
      },
    },
  },
};
