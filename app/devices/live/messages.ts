/** Texts of the live device controls: switch, batch commands, auto-refresh, broker state, device alarms. */
export default {
  'zh-CN': {
    device: {
      switch: { on: '合闸', off: '分闸', locked: '已锁定' },
      batch: {
        reboot: '批量重启', time: '批量校时', open: '批量分闸', close: '批量合闸', lock: '批量锁定', unlock: '批量解锁',
        noneSelected: '请先选择需要操作的设备', result: '命令执行结果', selected: '已选择 %{count} 台设备',
        confirm: '确定要对选中的 %{count} 台设备执行%{command}吗？',
      },
      autoRefresh: '自动刷新',
      alarm: {
        raised: '设备 %{number} 告警：%{alarm}',
        trip: '已脱扣',
        reading: '%{value}（限值 %{limit}）',
        many: '%{count} 项告警',
        kinds: {
          overvoltage: '过压告警', undervoltage: '欠压告警', overcurrent: '过流告警', overpower: '过载告警', leakage: '漏电告警',
          overtemperature: '超温告警', 'current-jump': '电流突变', 'temperature-jump': '温度突变',
        },
      },
      broker: {
        reconnecting: '设备通道重连中', offline: '设备通道未连接', unknown: '设备通道状态未知',
        hint: '服务器与消息服务器的连接中断时，设备命令无法送达',
      },
    },
  },
  'zh-TW': {
    device: {
      switch: { on: '合閘', off: '分閘', locked: '已鎖定' },
      batch: {
        reboot: '批量重啟', time: '批量校時', open: '批量分閘', close: '批量合閘', lock: '批量鎖定', unlock: '批量解鎖',
        noneSelected: '請先選擇需要操作的設備', result: '命令執行結果', selected: '已選擇 %{count} 台設備',
        confirm: '確定要對選中的 %{count} 台設備執行%{command}嗎？',
      },
      autoRefresh: '自動刷新',
      broker: {
        reconnecting: '設備通道重連中', offline: '設備通道未連接', unknown: '設備通道狀態未知',
        hint: '伺服器與訊息伺服器的連線中斷時，設備命令無法送達',
      },
    },
  },
  'en-US': {
    device: {
      switch: { on: 'Closed (on)', off: 'Open (off)', locked: 'Locked' },
      batch: {
        reboot: 'Reboot', time: 'Sync time', open: 'Open breakers', close: 'Close breakers', lock: 'Lock', unlock: 'Unlock',
        noneSelected: 'Select the devices to operate first', result: 'Command results', selected: '%{count} devices selected',
        confirm: 'Send "%{command}" to the %{count} selected devices?',
      },
      autoRefresh: 'Auto refresh',
      alarm: {
        raised: 'Device %{number} alarm: %{alarm}',
        trip: 'tripped',
        reading: '%{value} (limit %{limit})',
        many: '%{count} alarms',
        kinds: {
          overvoltage: 'Over-voltage', undervoltage: 'Under-voltage', overcurrent: 'Over-current', overpower: 'Overload', leakage: 'Leakage',
          overtemperature: 'Over-temperature', 'current-jump': 'Current jump', 'temperature-jump': 'Temperature jump',
        },
      },
      broker: {
        reconnecting: 'Device channel reconnecting', offline: 'Device channel down', unknown: 'Device channel state unknown',
        hint: 'While the server is not connected to the message broker, device commands cannot be delivered',
      },
    },
  },
};
