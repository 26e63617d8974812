/** Texts of the area page. Chinese wording follows the specification. */
export default {
  "zh-CN": {
    "areas": {
      "top": "顶级地区",
      "parent": "上级地区",
      "addTop": "新增顶级",
      "addChild": "新增下级",
      "edit": "编辑",
      "delete": "删除",
      "confirmDelete": "确认删除吗",
      "expand": "展开",
      "collapse": "收起",
      "codeHint": "只能填写数字，保存后不可修改",
      "saveFailed": "保存失败",
      "title": "地区管理",
      "treeTitle": "地区",
      "viewTitle": "地区详情",
      "editTitle": "编辑地区",
      "addChildTitle": "新增下级地区",
      "addTopTitle": "新增顶级地区",
      "number": "地区编号",
      "name": "地区名称",
      "pinyin": "地区拼音",
      "pinyinAcr": "拼音缩写",
      "empty": "暂无地区",
      "pick": "请在左侧选择地区",
      "saved": "地区保存成功",
      "deleted": "地区删除成功",
      "messages": {
        "fAreaIdTaken": "地区编号已存在",
        "fAreaIdRequired": "地区编号不能为空",
        "fAreaIdNumeric": "地区编号必须是数字",
        "fAreaNameRequired": "地区名称不能为空",
        "hasChildren": "请先删除子地区",
        "tooLong": "最多%{max}个字符"
      }
    }
  },
  "zh-TW": {
    "areas": {
      "top": "頂級地區",
      "parent": "上級地區",
      "addTop": "新增頂級",
      "addChild": "新增下級",
      "edit": "編輯",
      "delete": "刪除",
      "confirmDelete": "確認刪除嗎",
      "expand": "展開",
      "collapse": "收起",
      "codeHint": "只能填寫數字，儲存後不可修改",
      "saveFailed": "儲存失敗",
      "title": "地區管理",
      "treeTitle": "地區",
      "viewTitle": "地區詳情",
      "editTitle": "編輯地區",
      "addChildTitle": "新增下級地區",
      "addTopTitle": "新增頂級地區",
      "number": "地區編號",
      "name": "地區名稱",
      "pinyin": "地區拼音",
      "pinyinAcr": "拼音縮寫",
      "empty": "暫無地區",
      "pick": "請在左側選擇地區",
      "saved": "地區儲存成功",
      "deleted": "地區刪除成功",
      "messages": {
        "fAreaIdTaken": "地區編號已存在",
        "fAreaIdRequired": "地區編號不能為空",
        "fAreaIdNumeric": "地區編號必須是數字",
        "fAreaNameRequired": "地區名稱不能為空",
        "hasChildren": "請先刪除子地區",
        "tooLong": "最多%{max}個字元"
      }
    }
  },
  "en-US": {
    "areas": {
      "top": "Top level",
      "parent": "Parent area",
      "addTop": "Add top level",
      "addChild": "Add child",
      "edit": "Edit",
      "delete": "Delete",
      "confirmDelete": "Delete this item?",
      "expand": "Expand",
      "collapse": "Collapse",
      "codeHint": "Digits only; cannot be changed once saved",
      "saveFailed": "Saving failed",
      "title": "Areas",
      "treeTitle": "Regions",
      "viewTitle": "Area details",
      "editTitle": "Edit area",
      "addChildTitle": "Add sub-area",
      "addTopTitle": "Add top-level area",
      "number": "Area number",
      "name": "Area name",
      "pinyin": "Pinyin",
      "pinyinAcr": "Pinyin initials",
      "empty": "No areas",
      "pick": "Select an area on the left",
      "saved": "Area saved",
      "deleted": "Area deleted",
      "messages": {
        "fAreaIdTaken": "This area number is already used",
        "fAreaIdRequired": "Area number is required",
        "fAreaIdNumeric": "Area number must be a number",
        "fAreaNameRequired": "Area name is required",
        "hasChildren": "Delete the sub-areas first",
        "tooLong": "At most %{max} characters"
      }
    }
  }
};
