/** Texts of the user asset tab (app/components/UserAssetsTab.tsx). */
export default {
  'zh-CN': {
    assets: {
      room: '房间',
      deviceId: '设备ID',
      deviceName: '设备名称',
      activated: '已激活',
      notActivated: '未激活',
      columns: { home: '家庭', room: '房间', roomType: '房间类型', deviceName: '设备名称', number: '设备编号', activation: '激活状态', online: '在线状态', product: '产品名称', productType: '产品设备类型' },
      productTypes: { 1: '普通设备', 2: '网关设备', 3: '直连设备' },
    },
  },
  'zh-TW': {
    assets: {
      room: '房間',
      deviceId: '設備ID',
      deviceName: '設備名稱',
      activated: '已啟用',
      notActivated: '未啟用',
      columns: { home: '家庭', room: '房間', roomType: '房間類型', deviceName: '設備名稱', number: '設備編號', activation: '啟用狀態', online: '在線狀態', product: '產品名稱', productType: '產品設備類型' },
      productTypes: { 1: '普通設備', 2: '網關設備', 3: '直連設備' },
    },
  },
  'en-US': {
    assets: {
      room: 'Room',
      deviceId: 'Device ID',
      deviceName: 'Device name',
      activated: 'Activated',
      notActivated: 'Not activated',
      columns: { home: 'Home', room: 'Room', roomType: 'Room type', deviceName: 'Device name', number: 'Device number', activation: 'Activation', online: 'Online', product: 'Product', productType: 'Product device type' },
      productTypes: { 1: 'Normal device', 2: 'Gateway', 3: 'Direct-connect device' },
    },
  },
};
