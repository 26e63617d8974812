/** `new <entity>`: the two files a developer edits to add an entity, filled with a working start. */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel } from './model';
import { nextSort } from './menuTree';

/** `parent`: the menu section (resources/menus.json) the new page goes under, after its last entry. */
export function scaffold(root: string, entity: string, options: { parent?: string } = {}): string[] {
  if (!/^[a-z][a-zA-Z0-9]*$/.test(entity)) throw new Error(`"${entity}" is not a valid entity name: use lowerCamelCase letters and digits`);
  const table = 't_' + entity.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
  const api = entity.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
  const schemaFile = join(root, 'schemas', `${entity}.schema.json`);
  const resourceFile = join(root, 'resources', `${entity}.resource.json`);
  for (const f of [schemaFile, resourceFile]) if (existsSync(f)) throw new Error(`${f} already exists`);
  const model = loadModel(root);
  const sections = model.menus.sections.map((s) => s.key);
  if (options.parent !== undefined && !sections.includes(options.parent)) throw new Error(`unknown menu section "${options.parent}" (known: ${sections.join(', ')})`);
  const place = { ...(options.parent ? { parent: options.parent } : {}), sort: nextSort(model, options.parent) };
  const label = (zh: string, tw: string, en: string) => ({ 'zh-CN': zh, 'zh-TW': tw, 'en-US': en });
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: entity,
    title: entity,
    type: 'object',
    'x-label': label(entity, entity, entity),
    // The list's keyword filter on fName is served by a trigram index (generator/listIndexes.ts).
    'x-db': { table, indexes: [{ trigram: 'fName' }] },
    properties: {
      fId: { type: 'integer', readOnly: true, 'x-db': { primaryKey: true }, 'x-label': label('编号', '編號', 'ID') },
      fName: {
        type: 'string', maxLength: 100, 'x-label': label('名称', '名稱', 'Name'),
        'x-messages': { required: label('名称不能为空', '名稱不能為空', 'Name is required') },
      },
      fIntime: { type: 'string', format: 'date-time', readOnly: true, 'x-db': { default: 'now' }, 'x-label': label('创建时间', '建立時間', 'Created') },
    },
    required: ['fName'],
  };
  const resource = {
    $schema: '../generator/meta/resource.meta.json',
    entity,
    // Who sees which rows: every holder of the list code sees all (change it for people or places).
    scope: 'everyone',
    endpoints: {
      list: { path: `/biz/t-${api}/pagelist`, permission: `${entity}:list` },
      save: { path: `/biz/t-${api}/addorupdate`, permission: { create: `${entity}:add`, update: `${entity}:edit` }, message: label('保存成功', '儲存成功', 'Saved') },
      delete: { path: `/biz/t-${api}/del`, permission: `${entity}:del`, message: label('删除成功', '刪除成功', 'Deleted') },
    },
    permissions: {
      [`${entity}:list`]: label('查看', '查看', 'View'),
      [`${entity}:add`]: label('新增', '新增', 'Add'),
      [`${entity}:edit`]: label('编辑', '編輯', 'Edit'),
      [`${entity}:del`]: label('删除', '刪除', 'Delete'),
    },
    list: { view: 'table', pageSize: 10, pageSizes: [10, 20, 50, 100], columns: ['fName', 'fIntime'], filters: [{ key: 'name', field: 'fName', op: 'like' }] },
    form: { layout: 'modal', fields: ['fName'] },
    menu: { key: entity, path: `/${entity}`, component: entity, icon: 'List', ...place, title: label(entity, entity, entity) },
  };
  writeFileSync(schemaFile, JSON.stringify(schema, null, 2) + '\n');
  writeFileSync(resourceFile, JSON.stringify(resource, null, 2) + '\n');
  return [schemaFile, resourceFile];
}
