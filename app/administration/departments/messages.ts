/** Texts of the department page. Chinese wording follows the specification. */
export default {
  "zh-CN": {
    "departments": {
      "top": "顶级部门",
      "parent": "上级部门",
      "addTop": "新增顶级",
      "addChild": "新增下级",
      "edit": "编辑",
      "delete": "删除",
      "confirmDelete": "确认删除吗",
      "expand": "展开",
      "collapse": "收起",
      "codeHint": "只能填写数字，保存后不可修改",
      "saveFailed": "保存失败",
      "title": "部门管理",
      "treeTitle": "部门",
      "viewTitle": "部门详情",
      "editTitle": "编辑部门",
      "addChildTitle": "新增下级部门",
      "addTopTitle": "新增顶级部门",
      "number": "部门编号",
      "name": "部门名称",
      "empty": "暂无部门",
      "pick": "请在左侧选择部门",
      "saved": "部门保存成功",
      "deleted": "部门删除成功",
      "messages": {
        "fDepartmentIdTaken": "部门编号已存在",
        "fDepartmentIdRequired": "部门编号不能为空",
        "fDepartmentIdNumeric": "部门编号必须是正整数",
        "fDepartmentNameRequired": "部门名称不能为空",
        "hasChildren": "请先删除子部门",
        "tooLong": "最多%{max}个字符"
      }
    }
  },
  "zh-TW": {
    "departments": {
      "top": "頂級部門",
      "parent": "上級部門",
      "addTop": "新增頂級",
      "addChild": "新增下級",
      "edit": "編輯",
      "delete": "刪除",
      "confirmDelete": "確認刪除嗎",
      "expand": "展開",
      "collapse": "收起",
      "codeHint": "只能填寫數字，儲存後不可修改",
      "saveFailed": "儲存失敗",
      "title": "部門管理",
      "treeTitle": "部門",
      "viewTitle": "部門詳情",
      "editTitle": "編輯部門",
      "addChildTitle": "新增下級部門",
      "addTopTitle": "新增頂級部門",
      "number": "部門編號",
      "name": "部門名稱",
      "empty": "暫無部門",
      "pick": "請在左側選擇部門",
      "saved": "部門儲存成功",
      "deleted": "部門刪除成功",
      "messages": {
        "fDepartmentIdTaken": "部門編號已存在",
        "fDepartmentIdRequired": "部門編號不能為空",
        "fDepartmentIdNumeric": "部門編號必須是正整數",
        "fDepartmentNameRequired": "部門名稱不能為空",
        "hasChildren": "請先刪除子部門",
        "tooLong": "最多%{max}個字元"
      }
    }
  },
  "en-US": {
    "departments": {
      "top": "Top level",
      "parent": "Parent department",
      "addTop": "Add top level",
      "addChild": "Add child",
      "edit": "Edit",
      "delete": "Delete",
      "confirmDelete": "Delete this item?",
      "expand": "Expand",
      "collapse": "Collapse",
      "codeHint": "Digits only; cannot be changed once saved",
      "saveFailed": "Saving failed",
      "title": "Departments",
      "treeTitle": "Departments",
      "viewTitle": "Department details",
      "editTitle": "Edit department",
      "addChildTitle": "Add sub-department",
      "addTopTitle": "Add top-level department",
      "number": "Department number",
      "name": "Department name",
      "empty": "No departments",
      "pick": "Select a department on the left",
      "saved": "Department saved",
      "deleted": "Department deleted",
      "messages": {
        "fDepartmentIdTaken": "This department number is already used",
        "fDepartmentIdRequired": "Department number is required",
        "fDepartmentIdNumeric": "Department number must be a positive whole number",
        "fDepartmentNameRequired": "Department name is required",
        "hasChildren": "Delete the sub-departments first",
        "tooLong": "At most %{max} characters"
      }
    }
  }
};
