/** Texts of the gateway page. Chinese wording follows the specification. */
export default {
  'zh-CN': {
    gateways: {
      selectType: '查询方式', byNumber: '网关编号', byName: '网关名称', keyword: '请输入关键字', number: '编号', name: '名称',
      children: '子设备', noChildren: '暂无子设备', add: '添加子设备', addTitle: '添加网关子设备', unbind: '解绑',
      confirmUnbind: '确定要解绑该设备？', noneSelected: '未选择网关子设备', added: '网关子设备添加成功', addFailed: '网关子设备添加失败',
      unbound: '网关子设备解绑成功', unbindFailed: '网关子设备解绑失败', deviceName: '设备名称', deviceNumber: '设备编号', selected: '已选 %{count} 个',
      childCount: '共 %{count} 个子设备',
    },
  },
  'zh-TW': {
    gateways: {
      selectType: '查詢方式', byNumber: '閘道編號', byName: '閘道名稱', keyword: '請輸入關鍵字', number: '編號', name: '名稱',
      children: '子設備', noChildren: '暫無子設備', add: '新增子設備', addTitle: '新增閘道子設備', unbind: '解綁',
      confirmUnbind: '確定要解綁該設備？', noneSelected: '未選擇閘道子設備', added: '閘道子設備新增成功', addFailed: '閘道子設備新增失敗',
      unbound: '閘道子設備解綁成功', unbindFailed: '閘道子設備解綁失敗', deviceName: '設備名稱', deviceNumber: '設備編號', selected: '已選 %{count} 個',
      childCount: '共 %{count} 個子設備',
    },
  },
  'en-US': {
    gateways: {
      selectType: 'Search by', byNumber: 'Gateway number', byName: 'Gateway name', keyword: 'Keyword', number: 'Number', name: 'Name',
      children: 'Child devices', noChildren: 'No child devices', add: 'Add child devices', addTitle: 'Add gateway child devices', unbind: 'Unbind',
      confirmUnbind: 'Unbind this device?', noneSelected: 'No child device selected', added: 'Child devices added', addFailed: 'Adding child devices failed',
      unbound: 'Child device unbound', unbindFailed: 'Unbinding failed', deviceName: 'Device name', deviceNumber: 'Device number', selected: '%{count} selected',
      childCount: '%{count} child devices',
    },
  },
};
