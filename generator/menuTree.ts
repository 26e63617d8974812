/**
 * The console's menu tree as the inputs declare it: sections (resources/menus.json), hand-written pages,
 * resource menus and list variants' menus. `new` places a menu in it; `validate` warns of entries a user
 * would find hard to tell apart or to find.
 */
import type { I18n, Model, Problem } from './model';

interface MenuEntry {
  file: string;
  pointer: string;
  /** The name a scaffold gives the entry until someone names it: the entity or variant name. */
  name?: string;
  parent?: string;
  sort?: number;
  title: I18n;
}

function entries(model: Model): MenuEntry[] {
  const out: MenuEntry[] = model.menus.sections.map((s, i) => ({ file: 'resources/menus.json', pointer: `/sections/${i}`, sort: s.sort, title: s.title }));
  model.menus.pages.forEach((p, i) => out.push({ file: 'resources/menus.json', pointer: `/pages/${i}`, parent: p.parent, sort: p.sort, title: p.title }));
  for (const e of model.entities) {
    const m = e.resource.menu;
    if (m) out.push({ file: e.resourceFile, pointer: '/menu', name: e.name, parent: m.parent, sort: m.sort, title: m.title });
    for (const [name, v] of Object.entries(e.resource.list.variants ?? {})) out.push({ file: e.resourceFile, pointer: `/list/variants/${name}/menu`, name, parent: v.menu.parent, sort: v.menu.sort, title: v.menu.title });
  }
  return out;
}

/** The sort after every entry already under `parent` (a section key; undefined: the top level). */
export function nextSort(model: Model, parent: string | undefined): number {
  return Math.max(0, ...entries(model).filter((m) => m.parent === parent).map((m) => m.sort ?? 0)) + 1;
}

/** Menus still as scaffolded: titled with the bare entity name in every language, or top-level with no place. */
export function menuWarnings(model: Model): Problem[] {
  const warnings: Problem[] = [];
  for (const m of entries(model)) {
    if (m.name && Object.values(m.title).every((t) => t === m.name)) {
      warnings.push({ file: m.file, pointer: `${m.pointer}/title`, message: `the menu is titled "${m.name}" in zh-CN, zh-TW and en-US`, hint: 'give the title users read in each language' });
    }
    if (m.name && !m.parent && !m.sort) {
      warnings.push({ file: m.file, pointer: `${m.pointer}/sort`, message: 'a top-level menu with sort 0 comes before every section', hint: `put it in a section ("parent") or give it a "sort" (next free at the top level: ${nextSort(model, undefined)})` });
    }
  }
  return warnings;
}
