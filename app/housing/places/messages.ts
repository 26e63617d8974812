/** Texts of the place page and its rooms modal. Chinese wording follows the specification. */
export default {
  'zh-CN': {
    places: {
      name: '场所名称', namePlaceholder: '请输入场所名称', district: '所属区域', rooms: '房间数', devices: '设备数', owner: '所属用户',
      roomsAction: '房间', addTitle: '新增场所', editTitle: '编辑场所', saveFailed: '场所保存失败:%{message}',
      deleteFailed: '场所删除失败:%{message}', confirmDelete: '确定要删除该场所吗？', empty: '暂无场所',
      roomsTitle: '房间管理 - %{name}', roomName: '房间名称', roomNamePlaceholder: '请输入房间名称', roomType: '房间类型',
      addRoom: '新增房间', editRoom: '编辑房间', roomNameRequired: '房间名称不能为空', roomSaved: '房间保存成功',
      roomSaveFailed: '房间保存失败:%{message}', roomDeleted: '房间删除成功', roomDeleteFailed: '房间删除失败:%{message}',
      confirmDeleteRoom: '确定要删除该房间吗？', noRooms: '暂无房间', bind: '绑定设备', unbind: '解绑设备',
      bindTitle: '绑定设备 - %{name}', unbindTitle: '解绑设备 - %{name}', bindNone: '请选择需要绑定的设备', unbindNone: '请选择需要解绑的设备',
      bound: '设备绑定完成', unbound: '设备解绑绑完成', keyword: '设备名称/编号', selected: '已选 %{count} 台',
      close: '关闭', number: '设备编号', deviceName: '设备名称', product: '所属产品', online: '在线状态',
    },
  },
  'zh-TW': {
    places: {
      name: '場所名稱', namePlaceholder: '請輸入場所名稱', district: '所屬區域', rooms: '房間數', devices: '設備數', owner: '所屬用戶',
      roomsAction: '房間', addTitle: '新增場所', editTitle: '編輯場所', saveFailed: '場所儲存失敗:%{message}',
      deleteFailed: '場所刪除失敗:%{message}', confirmDelete: '確定要刪除該場所嗎？', empty: '暫無場所',
      roomsTitle: '房間管理 - %{name}', roomName: '房間名稱', roomNamePlaceholder: '請輸入房間名稱', roomType: '房間類型',
      addRoom: '新增房間', editRoom: '編輯房間', roomNameRequired: '房間名稱不能為空', roomSaved: '房間儲存成功',
      roomSaveFailed: '房間儲存失敗:%{message}', roomDeleted: '房間刪除成功', roomDeleteFailed: '房間刪除失敗:%{message}',
      confirmDeleteRoom: '確定要刪除該房間嗎？', noRooms: '暫無房間', bind: '綁定設備', unbind: '解綁設備',
      bindTitle: '綁定設備 - %{name}', unbindTitle: '解綁設備 - %{name}', bindNone: '請選擇需要綁定的設備', unbindNone: '請選擇需要解綁的設備',
      bound: '設備綁定完成', unbound: '設備解綁完成', keyword: '設備名稱/編號', selected: '已選 %{count} 台',
      close: '關閉', number: '設備編號', deviceName: '設備名稱', product: '所屬產品', online: '線上狀態',
    },
  },
  'en-US': {
    places: {
      name: 'Place name', namePlaceholder: 'Place name', district: 'District', rooms: 'Rooms', devices: 'Devices', owner: 'Owner',
      roomsAction: 'Rooms', addTitle: 'Add place', editTitle: 'Edit place', saveFailed: 'Saving the place failed: %{message}',
      deleteFailed: 'Deleting the place failed: %{message}', confirmDelete: 'Delete this place?', empty: 'No places',
      roomsTitle: 'Rooms - %{name}', roomName: 'Room name', roomNamePlaceholder: 'Room name', roomType: 'Room type',
      addRoom: 'Add room', editRoom: 'Edit room', roomNameRequired: 'Room name is required', roomSaved: 'Room saved',
      roomSaveFailed: 'Saving the room failed: %{message}', roomDeleted: 'Room deleted', roomDeleteFailed: 'Deleting the room failed: %{message}',
      confirmDeleteRoom: 'Delete this room?', noRooms: 'No rooms', bind: 'Bind devices', unbind: 'Unbind devices',
      bindTitle: 'Bind devices - %{name}', unbindTitle: 'Unbind devices - %{name}', bindNone: 'Select the devices to bind', unbindNone: 'Select the devices to unbind',
      bound: 'Devices bound', unbound: 'Devices unbound', keyword: 'Device name or number', selected: '%{count} selected',
      close: 'Close', number: 'Device number', deviceName: 'Device name', product: 'Product', online: 'Online',
    },
  },
};
