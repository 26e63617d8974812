/** Paging, filters and sorting of list calls, all taken from the resource file, never from raw input. */
import { sql } from 'kysely';
import type { EntityModel, Query } from './types';

export interface PageRequest {
  current: number;
  size: number;
  condition: Record<string, unknown>;
  orders: { column: string; asc: boolean }[];
}

const MAX_PAGE = 10000;

export function pageRequest(entity: EntityModel, body: Record<string, unknown>): PageRequest {
  const int = (v: unknown, fallback: number) => {
    const n = Number(v);
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  const condition = body.condition && typeof body.condition === 'object' ? (body.condition as Record<string, unknown>) : {};
  const asked = Array.isArray(body.orders) ? (body.orders as { column?: unknown; asc?: unknown }[]) : [];
  const orders = asked
    .filter((o) => typeof o?.column === 'string' && entity.sort.allowed.includes(o.column))
    .map((o) => ({ column: o.column as string, asc: o.asc === true || o.asc === 'true' }));
  return {
    current: int(body.current, 1),
    size: Math.min(int(body.size ?? body.pageSize, entity.pageSize), MAX_PAGE),
    condition,
    orders: orders.length ? orders : entity.sort.default,
  };
}

function blank(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

export function applyFilters(query: Query, entity: EntityModel, condition: Record<string, unknown>): Query {
  for (const f of entity.filters) {
    const value = condition[f.key];
    if (blank(value)) continue;
    let fields = f.fields ?? [f.field!];
    if (f.selectBy) {
      const chosen = f.selectBy.fields[String(condition[f.selectBy.key] ?? '')];
      if (chosen) fields = [chosen];
    }
    query = query.where((eb) =>
      eb.or(
        fields.map((field) => {
          const col = `${entity.table}.${field}`;
          switch (f.op) {
            case 'like':
              return eb(sql`${sql.ref(col)}::text`, 'ilike', `%${escapeLike(String(value))}%`);
            case 'in':
              return eb(col, 'in', Array.isArray(value) ? value : String(value).split(','));
            case 'gte':
              return eb(col, '>=', value);
            case 'lte':
              return eb(col, '<=', value);
            default:
              return eb(col, '=', value);
          }
        }),
      ),
    );
  }
  return query;
}
