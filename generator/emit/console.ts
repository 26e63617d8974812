/**
 * app/generated/resources.tsx (one declarative config per resource, composed with its list component)
 * and the declared texts (every label, option and message of the inputs in the three languages), which
 * emit/catalogues.ts merges into the per-language catalogues.
 */
import type { Model, Entity, Lang } from '../model';
import { LANGS, primaryKey } from '../model';
import { tsHeader, literal } from './common';

function fieldConfig(entity: Entity, source: string) {
  const p = entity.schema.properties[source];
  const r = entity.resource;
  const key = `resources.${entity.name}`;
  const messages = Object.fromEntries(Object.keys(p['x-messages'] ?? {}).map((rule) => [rule, `${key}.messages.${source}.${rule}`]));
  return {
    source,
    type: p.format === 'date-time' || p.format === 'date' ? p.format : p.type,
    label: `${key}.fields.${source}`,
    ...((entity.schema.required ?? []).includes(source) ? { required: true } : {}),
    ...(p.maxLength ? { maxLength: p.maxLength } : {}),
    ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
    ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
    ...(p.pattern ? { pattern: p.pattern } : {}),
    ...(p.format === 'picture' || p.format === 'pictures' ? { format: p.format } : {}),
    ...(p.default !== undefined ? { default: p.default } : {}),
    ...(p['x-enum'] ? { enum: p['x-enum'] } : {}),
    ...(p.enum ? { values: p.enum } : {}),
    ...(p['x-dictionary'] ? { dictionary: p['x-dictionary'] } : {}),
    ...(p['x-ref'] ? { ref: p['x-ref'] } : {}),
    ...(p['x-refWhere'] ? { refWhere: p['x-refWhere'] } : {}),
    ...(p['x-multi'] ? { multi: p['x-multi'] } : {}),
    ...(p['x-transform'] ? { transform: p['x-transform'] } : {}),
    ...(p['x-mask'] ? { mask: p['x-mask'] } : {}),
    ...(p['x-notBefore'] ? { notBefore: p['x-notBefore'] } : {}),
    ...(p['x-widget'] ? { widget: p['x-widget'] } : {}),
    ...(p.readOnly ? { readOnly: true } : {}),
    ...(r.form.readOnlyOnEdit?.includes(source) ? { readOnlyOnEdit: true } : {}),
    ...(r.form.adminOnly?.includes(source) ? { adminOnly: true } : {}),
    messages,
  };
}

function resourceConfig(entity: Entity) {
  const { name, resource: r, schema } = entity;
  return {
    name,
    label: `resources.${name}.name`,
    endpoints: Object.fromEntries(Object.entries(r.endpoints).map(([a, ep]) => [a, ep.path])),
    notifications: Object.fromEntries(Object.entries(r.endpoints).filter(([, ep]) => ep.message).map(([a]) => [a, `resources.${name}.notifications.${a}`])),
    permissions: Object.fromEntries(Object.entries(r.endpoints).map(([a, ep]) => [a, ep.permission])),
    fields: Object.fromEntries(Object.keys(schema.properties).map((f) => [f, fieldConfig(entity, f)])),
    list: {
      view: r.list.view,
      pageSize: r.list.pageSize,
      pageSizes: r.list.pageSizes ?? [r.list.pageSize],
      ...(r.list.cardPageSize ? { cardPageSize: r.list.cardPageSize } : {}),
      ...(r.list.tree ? { tree: r.list.tree } : {}),
      columns: r.list.columns,
      ...(r.list.switches ? { switches: r.list.switches } : {}),
      // A filter on a related row is labelled with that row's field (an alarm's device number).
      // A filter's own label is in the catalogue (resources.<entity>.filters.<key>), which the list reads first.
      filters: (r.list.filters ?? []).map(({ label: _, ...f }) => {
        const target = f.relation ? schema['x-db'].relations?.[f.relation]?.entity : undefined;
        return target ? { ...f, label: `resources.${target}.fields.${f.field ?? f.fields![0]}` } : f;
      }),
      sort: r.list.sort?.default ?? [{ column: primaryKey(schema), asc: false }],
      ...(r.list.highlight ? { highlight: r.list.highlight } : {}),
      ...(r.list.links ? { links: r.list.links } : {}),
    },
    form: { layout: r.form.layout ?? 'modal', fields: r.form.fields, ...(r.form.view ? { view: true } : {}) },
    ...(r.menu ? { menu: { key: r.menu.key, path: r.menu.path, icon: r.menu.icon } } : {}),
  };
}

/**
 * A variant is the resource's config again under its own name (its page is /<variant>), with the
 * variant's menu, columns, filters, default condition, links and placeholders; `entity` keeps the
 * data provider on the resource's endpoints.
 */
function variantConfigs(entity: Entity) {
  const base = resourceConfig(entity);
  const r = entity.resource;
  return Object.entries(r.list.variants ?? {}).map(([name, v]) => {
    const listed = v.filters ? v.filters.map((k) => base.list.filters.find((f) => f.key === k)!) : base.list.filters;
    // A filter the condition fixes stays known to the page, hidden, so new rows get its value (a document's type).
    const fixedByCondition = base.list.filters.filter((f) => f.key in (v.condition ?? {}) && !listed.includes(f)).map((f) => ({ ...f, input: 'hidden' as const }));
    const shown = [...listed, ...fixedByCondition];
    // The variant's own codes decide its buttons (a type-4 document is edited with programHelpManual:edit).
    const own = Object.fromEntries(Object.entries(v.permissions ?? {}).map(([a, code]) => [a, typeof base.permissions[a] === 'object' ? { create: code, update: code } : code]));
    return {
      ...base,
      name,
      entity: entity.name,
      label: `menus.${v.menu.key}`,
      permissions: { ...base.permissions, ...own },
      list: {
        ...base.list,
        pageSize: v.pageSize ?? base.list.pageSize,
        pageSizes: v.pageSizes ?? (v.pageSize ? [v.pageSize] : base.list.pageSizes),
        columns: v.columns ?? base.list.columns,
        filters: shown,
        ...(v.condition ? { condition: v.condition } : {}),
        ...(v.links ? { links: v.links } : {}),
        ...(v.placeholders ? { placeholders: Object.fromEntries(Object.keys(v.placeholders).map((c) => [c, `resources.${entity.name}.variants.${name}.placeholders.${c}`])) } : {}),
        ...(v.actions ? { actions: v.actions } : {}),
        ...(v.endpoint ? { endpoint: v.endpoint } : {}),
      },
      menu: { key: v.menu.key, path: `/${name}`, icon: v.menu.icon },
    };
  });
}

/** `{ ...base, <keys that differ> }`, one level deeper for the list, where a variant changes little of it. */
function difference(name: string, base: Record<string, unknown>, variant: Record<string, unknown>, indent: number): string {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const pad = ' '.repeat(indent + 2);
  const lines = [`...${name}`];
  for (const [key, value] of Object.entries(variant)) {
    if (same(value, base[key])) continue;
    const inner = base[key];
    if (key === 'list' && inner && typeof inner === 'object') {
      const changed = Object.entries(value as Record<string, unknown>).filter(([k, v]) => !same(v, (inner as Record<string, unknown>)[k]));
      // An item of a list array the base already has (a filter the variant keeps) is named, not repeated.
      const listValue = (k: string, v: unknown) => {
        const from = (inner as Record<string, unknown>)[k];
        if (!Array.isArray(v) || !Array.isArray(from)) return literal(v, indent + 2);
        const pad2 = ' '.repeat(indent + 4);
        const items = v.map((item) => {
          const at = from.findIndex((b) => typeof item === 'object' && same(b, item));
          return at >= 0 ? `${name}.list.${k}[${at}]` : literal(item, indent + 4);
        });
        return `[\n${items.map((i) => pad2 + i).join(',\n')},\n${' '.repeat(indent + 2)}]`;
      };
      lines.push(`list: { ...${name}.list, ${changed.map(([k, v]) => `${JSON.stringify(k)}: ${listValue(k, v)}`).join(', ')} }`);
    } else lines.push(`${JSON.stringify(key)}: ${literal(value, indent + 2)}`);
  }
  return `{\n${lines.map((l) => pad + l).join(',\n')},\n${' '.repeat(indent)}}`;
}

function componentName(entity: Entity): { name: string; from: string } {
  const c = entity.resource.list.component;
  if (!c) return { name: 'SchemaList', from: '../components/SchemaList' };
  return { name: c.slice(c.lastIndexOf('/') + 1), from: `../${c}` };
}

export function emitConsole(model: Model): Record<string, string> {
  const imports = new Map<string, string>();
  for (const e of model.entities) {
    const c = componentName(e);
    imports.set(c.name, c.from);
  }
  // A resource with list variants is declared once as a constant; each variant spells out only what it
  // changes, so the variants cost the console's bundle a few lines each, not a copy of every field.
  const shared = model.entities.filter((e) => Object.keys(e.resource.list.variants ?? {}).length);
  const constants = shared.map((e) => `const ${e.name}Config: ResourceConfig = ${literal(resourceConfig(e))};\n`).join('\n');
  const body = model.entities
    .flatMap((e) => {
      const list = componentName(e).name;
      if (!shared.includes(e)) return [`  {\n    config: ${literal(resourceConfig(e), 4)},\n    list: ${list},\n  },`];
      const base = resourceConfig(e) as unknown as Record<string, unknown>;
      return [
        `  { config: ${e.name}Config, list: ${list} },`,
        ...variantConfigs(e).map((v) => `  {\n    config: ${difference(`${e.name}Config`, base, v as unknown as Record<string, unknown>, 4)},\n    list: ${list},\n  },`),
      ];
    })
    .join('\n');
  const resources =
    tsHeader +
    `import { lazyChunk } from '../shell/chunks';\n` +
    `import type { ResourceConfig, ResourceDefinition } from '../resources/types';\n\n` +
    // List pages load when first opened: the login and home pages carry none of their code.
    [...imports].map(([n, f]) => `const ${n} = lazyChunk(() => import('${f}'));\n`).join('') +
    (constants ? `\n${constants}` : '') +
    `\nexport const resources: ResourceDefinition[] = [\n${body}\n];\n`;
  // What the shell needs before any list opens (menus, routes, tab titles): a few lines per resource,
  // so the first screen does not carry every resource's fields, filters and endpoints.
  const entries = model.entities.flatMap((e) => [resourceConfig(e), ...variantConfigs(e)]).map(({ name, label, menu }) => ({ name, label, ...(menu ? { menu } : {}) }));
  // Each resource's list code, so that opening a list fetches it alongside ResourcePage and the
  // configs, not after them (the same modules as resources.tsx's lazy components: fetched once).
  const listCode = model.entities
    .flatMap((e) => [resourceConfig(e), ...variantConfigs(e)].map(({ name }) => [name, componentName(e).from] as const))
    .map(([name, from]) => `  ${JSON.stringify(name)}: () => import('${from}'),\n`)
    .join('');
  const index =
    tsHeader +
    `import type { ResourceEntry } from '../resources/types';\n\n` +
    `export const resourceIndex: ResourceEntry[] = ${literal(entries)};\n\n` +
    `/** The code of each resource's list page, by resource name. */\n` +
    `export const listCode: Record<string, () => Promise<unknown>> = {\n${listCode}};\n`;
  return { 'app/generated/resources.tsx': resources, 'app/generated/resourceIndex.ts': index };
}

/** Every label, option, validation and success message the schemas and resources declare, by language. */
export function declaredMessages(model: Model): Record<Lang, { [key: string]: unknown }> {
  const messages = {} as Record<Lang, { [key: string]: unknown }>;
  for (const lang of LANGS) {
    const res: Record<string, object> = {};
    for (const { name, schema, resource } of model.entities) {
      const fieldMessages: Record<string, Record<string, string>> = {};
      for (const [f, p] of Object.entries(schema.properties)) {
        if (p['x-messages']) fieldMessages[f] = Object.fromEntries(Object.entries(p['x-messages']).map(([rule, t]) => [rule, t[lang]]));
      }
      res[name] = {
        name: schema['x-label'][lang],
        fields: Object.fromEntries(Object.entries(schema.properties).map(([f, p]) => [f, p['x-label'][lang]])),
        messages: fieldMessages,
        notifications: Object.fromEntries(Object.entries(resource.endpoints).filter(([, ep]) => ep.message).map(([a, ep]) => [a, ep.message![lang]])),
        ...(resource.list.filters?.some((f) => f.label) ? { filters: Object.fromEntries(resource.list.filters.filter((f) => f.label).map((f) => [f.key, f.label![lang]])) } : {}),
        ...(resource.list.variants
          ? { variants: Object.fromEntries(Object.entries(resource.list.variants).map(([v, def]) => [v, { placeholders: Object.fromEntries(Object.entries(def.placeholders ?? {}).map(([c, t]) => [c, t[lang]])) }])) }
          : {}),
      };
    }
    const menus: Record<string, string> = {};
    for (const s of model.menus.sections) menus[s.key] = s.title[lang];
    for (const p of model.menus.pages) menus[p.key] = p.title[lang];
    for (const { resource } of model.entities) if (resource.menu) menus[resource.menu.key] = resource.menu.title[lang];
    for (const { resource } of model.entities) for (const v of Object.values(resource.list.variants ?? {})) menus[v.menu.key] = v.menu.title[lang];
    const permissions: Record<string, string> = {};
    for (const { resource } of model.entities) for (const [code, t] of Object.entries(resource.permissions)) permissions[code] = t[lang];
    const enums = Object.fromEntries(Object.entries(model.enums).map(([n, values]) => [n, Object.fromEntries(Object.entries(values).map(([v, t]) => [v, t[lang]]))]));
    // A seeded dictionary entry: its words here, and the seeded zh-CN words they translate, so the console
    // can tell an entry still as seeded from one an administrator has reworded.
    const dictionaries = Object.fromEntries(Object.entries(model.dictionaries).map(([k, values]) => [k, Object.fromEntries(Object.entries(values).map(([v, t]) => [v, { label: t[lang], seeded: t['zh-CN'] }]))]));
    messages[lang] = { resources: res, enums, dictionaries, menus, permissions };
  }
  return messages;
}
