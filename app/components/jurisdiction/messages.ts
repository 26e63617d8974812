/** Texts of the jurisdiction picker (app/components/JurisdictionPicker.tsx). */
export default {
  'zh-CN': {
    jurisdiction: {
      placeholder: '请选择',
      noData: '无数据',
      failed: '加载失败',
      clear: '清除',
      confirm: '确定',
      kinds: { area: '所属地区', street: '所属街道', community: '所属辖区', areatocommunityto: '所属辖区', pcs: '派出所', areatopcsto: '派出所', building: '所属楼栋', areatohome: '房屋', areatoperson: '人员' },
      levels: { province: '省份', city: '城市', district: '区县', street: '街道', community: '社区', building: '楼栋', house: '房屋', person: '人员', pcs: '派出所' },
    },
  },
  'zh-TW': {
    jurisdiction: {
      placeholder: '請選擇',
      noData: '無數據',
      failed: '載入失敗',
      clear: '清除',
      confirm: '確定',
      kinds: { area: '所屬地區', street: '所屬街道', community: '所屬轄區', areatocommunityto: '所屬轄區', pcs: '派出所', areatopcsto: '派出所', building: '所屬樓棟', areatohome: '房屋', areatoperson: '人員' },
      levels: { province: '省份', city: '城市', district: '區縣', street: '街道', community: '社區', building: '樓棟', house: '房屋', person: '人員', pcs: '派出所' },
    },
  },
  'en-US': {
    jurisdiction: {
      placeholder: 'Select',
      noData: 'No data',
      failed: 'Failed to load',
      clear: 'Clear',
      confirm: 'OK',
      kinds: { area: 'Area', street: 'Street', community: 'Jurisdiction', areatocommunityto: 'Jurisdiction', pcs: 'Police station', areatopcsto: 'Police station', building: 'Building', areatohome: 'House', areatoperson: 'Person' },
      levels: { province: 'Province', city: 'City', district: 'District', street: 'Street', community: 'Community', building: 'Building', house: 'House', person: 'Person', pcs: 'Police station' },
    },
  },
};
