/** Texts of the device drawer's alarm-cabinet tab. Chinese wording follows the specification. */
export default {
  'zh-CN': {
    device: { tabs: { cabinet: '报警设置' } },
    deviceCabinet: {
      add: '添加一行', empty: '暂无报警设置', channel: '通道', min: '最小值', max: '最大值', alarmOne: '一级报警', alarmTwo: '二级报警',
      unit: '单位', gasEn: '气体英文名', gasCh: '气体中文名', state: '启用', beginTime: '设置时间', unsaved: '未保存', save: '保存',
      unitRequired: '请先选择单位', minAboveMax: '最小值不能大于最大值', gasRequired: '气体名称不能都为空',
      saved: '保存成功', saveFailed: '保存失败:%{message}', deleted: '删除成功', deleteFailed: '删除失败:%{message}', confirmDelete: '确定要删除吗！',
    },
  },
  'zh-TW': {
    device: { tabs: { cabinet: '報警設定' } },
    deviceCabinet: {
      add: '新增一行', empty: '暫無報警設定', channel: '通道', min: '最小值', max: '最大值', alarmOne: '一級報警', alarmTwo: '二級報警',
      unit: '單位', gasEn: '氣體英文名', gasCh: '氣體中文名', state: '啟用', beginTime: '設定時間', unsaved: '未儲存', save: '儲存',
      unitRequired: '請先選擇單位', minAboveMax: '最小值不能大於最大值', gasRequired: '氣體名稱不能都為空',
      saved: '儲存成功', saveFailed: '儲存失敗:%{message}', deleted: '刪除成功', deleteFailed: '刪除失敗:%{message}', confirmDelete: '確定要刪除嗎！',
    },
  },
  'en-US': {
    device: { tabs: { cabinet: 'Alarm settings' } },
    deviceCabinet: {
      add: 'Add row', empty: 'No alarm settings', channel: 'Channel', min: 'Min', max: 'Max', alarmOne: 'Level 1', alarmTwo: 'Level 2',
      unit: 'Unit', gasEn: 'Gas (English)', gasCh: 'Gas (Chinese)', state: 'Enabled', beginTime: 'Set at', unsaved: 'Unsaved', save: 'Save',
      unitRequired: 'Choose a unit first', minAboveMax: 'Minimum cannot exceed maximum', gasRequired: 'Enter the gas name in at least one language',
      saved: 'Saved', saveFailed: 'Save failed: %{message}', deleted: 'Deleted', deleteFailed: 'Delete failed: %{message}', confirmDelete: 'Delete this row?',
    },
  },
};
