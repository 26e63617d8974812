/**
 * The server module of each entity (its scope, hooks and computed fields), as the route table names them.
 * The table registers them here when it loads (server/crud/routes.ts), so the engine reads the modules
 * without importing the table — the table imports the modules, and the modules the engine.
 */
import type { EntityHooks, EntityModel } from './types';

let registered: Record<string, EntityHooks> | undefined;

export function registerHooks(modules: Record<string, unknown>): void {
  registered = modules as Record<string, EntityHooks>;
}

/** An entity's hooks; before the route table is loaded no entity would be scoped right, so that is an error. */
export function hooksOf(entity: EntityModel): EntityHooks {
  if (!registered) throw new Error('the route table (server/crud/routes.ts) is not loaded: entity hooks are unknown');
  return registered[entity.name] ?? {};
}
