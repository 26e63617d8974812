/** Texts of the holographic profile and the call-relation graph (spec 001 §2.12, §2.13). */
export default {
  'zh-CN': {
    intel: {
      search: {
        placeholder: '请输入手机号或身份证号', button: '搜索', hint: '输入手机号或身份证号，查看人员全息档案',
        empty: '请输入搜索条件', phone: '请输入正确的手机号', length: '请输入正确的手机号或身份证号', idcard: '请输入正确的身份证号',
        relations: '请至少选择一个关系类型',
      },
      profile: {
        title: '人员全息档案', close: '关闭', basic: '基本信息', interests: '兴趣爱好', trail: '活动轨迹', rental: '租住信息', locks: '开锁记录', related: '关系人',
        name: '姓名', idcard: '身份证号', phone: '手机号', workUnit: '工作单位', workAddress: '工作地址', lastLogin: '最近登录',
        noAddress: '暂无地址', start: '开始', end: '结束', status: '状态', house: '出租屋', time: '时间', type: '方式', address: '地址', tag: '关系', number: '号码',
        photo: '照片', viewGraph: '查看通话关系',
      },
      leaseStatus: { 1: '未出租', 2: '在租', 3: '已退租' },
      lockType: { 1: '指纹开锁', 5: '身份证开锁', 17: '室内开锁', 22: '人脸开锁', 25: '蓝牙开锁', 27: '钥匙开锁' },
      tag: { address: '通讯录', tother: '同住人', totherHouse: '同屋' },
      relation: {
        types: '关系类型', type1: '通讯录', type2: '同住人', type3: '同屋', query: '查询', hidePeople: '隐藏人员', showPeople: '显示人员',
        find: '查找节点', findPlaceholder: '姓名或号码', notFound: '未找到该节点', export: '导出图片', fit: '适应画布', zoomIn: '放大', zoomOut: '缩小',
        nodes: '%{nodes} 个节点，%{edges} 条关系', expandHint: '双击号码节点展开其关系；单击节点查看详情', loading: '加载中...', expanded: '已展开 %{count} 个新节点',
        node: { center: '查询号码', person: '人员', phone: '号码' }, legend: '图例', truncated: '关系过多，仅显示部分',
        drawer: { title: '节点详情', personal: '个人信息', sameHouse: '同屋信息', coResidents: '同住人信息', phonebook: '通讯录', houses: '租住房屋', openProfile: '查看全息档案', unknown: '非平台用户' },
        area: '区域', street: '街道', houseName: '房屋', room: '房间',
      },
    },
  },
  'zh-TW': {
    intel: {
      search: {
        placeholder: '請輸入手機號或身分證號', button: '搜尋', hint: '輸入手機號或身分證號，查看人員全息檔案',
        empty: '請輸入搜尋條件', phone: '請輸入正確的手機號', length: '請輸入正確的手機號或身分證號', idcard: '請輸入正確的身分證號',
        relations: '請至少選擇一個關係類型',
      },
      profile: {
        title: '人員全息檔案', close: '關閉', basic: '基本資訊', interests: '興趣愛好', trail: '活動軌跡', rental: '租住資訊', locks: '開鎖記錄', related: '關係人',
        name: '姓名', idcard: '身分證號', phone: '手機號', workUnit: '工作單位', workAddress: '工作地址', lastLogin: '最近登入',
        noAddress: '暫無地址', start: '開始', end: '結束', status: '狀態', house: '出租屋', time: '時間', type: '方式', address: '地址', tag: '關係', number: '號碼',
        photo: '照片', viewGraph: '查看通話關係',
      },
      leaseStatus: { 1: '未出租', 2: '在租', 3: '已退租' },
      lockType: { 1: '指紋開鎖', 5: '身分證開鎖', 17: '室內開鎖', 22: '人臉開鎖', 25: '藍牙開鎖', 27: '鑰匙開鎖' },
      tag: { address: '通訊錄', tother: '同住人', totherHouse: '同屋' },
      relation: {
        types: '關係類型', type1: '通訊錄', type2: '同住人', type3: '同屋', query: '查詢', hidePeople: '隱藏人員', showPeople: '顯示人員',
        find: '查找節點', findPlaceholder: '姓名或號碼', notFound: '未找到該節點', export: '匯出圖片', fit: '適應畫布', zoomIn: '放大', zoomOut: '縮小',
        nodes: '%{nodes} 個節點，%{edges} 條關係', expandHint: '雙擊號碼節點展開其關係；單擊節點查看詳情', loading: '載入中...', expanded: '已展開 %{count} 個新節點',
        node: { center: '查詢號碼', person: '人員', phone: '號碼' }, legend: '圖例', truncated: '關係過多，僅顯示部分',
        drawer: { title: '節點詳情', personal: '個人資訊', sameHouse: '同屋資訊', coResidents: '同住人資訊', phonebook: '通訊錄', houses: '租住房屋', openProfile: '查看全息檔案', unknown: '非平台用戶' },
        area: '區域', street: '街道', houseName: '房屋', room: '房間',
      },
    },
  },
  'en-US': {
    intel: {
      search: {
        placeholder: 'Mobile or ID number', button: 'Search', hint: 'Enter a mobile or ID number to open the person profile',
        empty: 'Please enter a search term', phone: 'Please enter a valid mobile number', length: 'Please enter a valid mobile or ID number', idcard: 'Please enter a valid ID number',
        relations: 'Choose at least one relation type',
      },
      profile: {
        title: 'Person profile', close: 'Close', basic: 'Basic information', interests: 'Interests', trail: 'Activity trail', rental: 'Rental', locks: 'Unlock records', related: 'Related people',
        name: 'Name', idcard: 'ID number', phone: 'Mobile', workUnit: 'Work unit', workAddress: 'Work address', lastLogin: 'Last login',
        noAddress: 'No address', start: 'Start', end: 'End', status: 'Status', house: 'Rental house', time: 'Time', type: 'Type', address: 'Address', tag: 'Relation', number: 'Number',
        photo: 'Photo', viewGraph: 'Call relations',
      },
      leaseStatus: { 1: 'Not rented', 2: 'Renting', 3: 'Returned' },
      lockType: { 1: 'Fingerprint', 5: 'ID card', 17: 'From inside', 22: 'Face', 25: 'Bluetooth', 27: 'Key' },
      tag: { address: 'Address book', tother: 'Co-resident', totherHouse: 'Housemate' },
      relation: {
        types: 'Relation types', type1: 'Address book', type2: 'Co-residents', type3: 'Same house', query: 'Search', hidePeople: 'Hide people', showPeople: 'Show people',
        find: 'Find node', findPlaceholder: 'Name or number', notFound: 'No such node', export: 'Export PNG', fit: 'Fit', zoomIn: 'Zoom in', zoomOut: 'Zoom out',
        nodes: '%{nodes} nodes, %{edges} relations', expandHint: 'Double-click a phone node to expand it; click a node for details', loading: 'Loading...', expanded: '%{count} new nodes',
        node: { center: 'Searched phone', person: 'Person', phone: 'Phone' }, legend: 'Legend', truncated: 'Too many relations; part of them shown',
        drawer: { title: 'Node details', personal: 'Personal information', sameHouse: 'Same house', coResidents: 'Co-residents', phonebook: 'Phone book', houses: 'Rented houses', openProfile: 'Open profile', unknown: 'Not a platform user' },
        area: 'Area', street: 'Street', houseName: 'House', room: 'Room',
      },
    },
  },
};
