/** Texts of the group page. Chinese wording follows the specification. */
export default {
  'zh-CN': {
    groups: {
      name: '分组名称', namePlaceholder: '请输入分组名称', parent: '上级分组', top: '顶级分组', owner: '所属代理商', remark: '描述',
      devices: '设备数', created: '创建时间', addChild: '新增下级', addTitle: '新增分组', editTitle: '编辑分组', viewTitle: '分组详情',
      nameRequired: '分组名称不能为空', sameParent: '当前分组与上级分组不能相同', saved: '分组保存成功', saveFailed: '分组保存失败:%{message}',
      deleted: '分组删除成功', deleteFailed: '分组删除失败:%{message}', confirmDelete: '确定要删除吗！', empty: '暂无分组',
      boundDevices: '绑定的设备', bind: '绑定设备', bindTitle: '绑定设备', unbindSelected: '解绑选中', bindNone: '请选择需要绑定的设备',
      unbindNone: '请选择需要解绑的设备', bound: '设备绑定完成', unbound: '设备解绑绑完成', confirmUnbind: '确定要解绑选中的设备吗？',
      expandAll: '全部展开', collapseAll: '全部收起', noDevices: '暂无设备',
    },
  },
  'zh-TW': {
    groups: {
      name: '分組名稱', namePlaceholder: '請輸入分組名稱', parent: '上級分組', top: '頂級分組', owner: '所屬代理商', remark: '描述',
      devices: '設備數', created: '建立時間', addChild: '新增下級', addTitle: '新增分組', editTitle: '編輯分組', viewTitle: '分組詳情',
      nameRequired: '分組名稱不能為空', sameParent: '當前分組與上級分組不能相同', saved: '分組儲存成功', saveFailed: '分組儲存失敗:%{message}',
      deleted: '分組刪除成功', deleteFailed: '分組刪除失敗:%{message}', confirmDelete: '確定要刪除嗎！', empty: '暫無分組',
      boundDevices: '綁定的設備', bind: '綁定設備', bindTitle: '綁定設備', unbindSelected: '解綁選中', bindNone: '請選擇需要綁定的設備',
      unbindNone: '請選擇需要解綁的設備', bound: '設備綁定完成', unbound: '設備解綁完成', confirmUnbind: '確定要解綁選中的設備嗎？',
      expandAll: '全部展開', collapseAll: '全部收起', noDevices: '暫無設備',
    },
  },
  'en-US': {
    groups: {
      name: 'Group name', namePlaceholder: 'Group name', parent: 'Parent group', top: 'Top level', owner: 'Owning agent', remark: 'Description',
      devices: 'Devices', created: 'Created', addChild: 'Add sub-group', addTitle: 'Add group', editTitle: 'Edit group', viewTitle: 'Group details',
      nameRequired: 'Group name is required', sameParent: 'A group cannot be its own parent', saved: 'Group saved', saveFailed: 'Saving the group failed: %{message}',
      deleted: 'Group deleted', deleteFailed: 'Deleting the group failed: %{message}', confirmDelete: 'Delete this group?', empty: 'No groups',
      boundDevices: 'Bound devices', bind: 'Bind devices', bindTitle: 'Bind devices', unbindSelected: 'Unbind selected', bindNone: 'Select the devices to bind',
      unbindNone: 'Select the devices to unbind', bound: 'Devices bound', unbound: 'Devices unbound', confirmUnbind: 'Unbind the selected devices?',
      expandAll: 'Expand all', collapseAll: 'Collapse all', noDevices: 'No devices',
    },
  },
};
