/**
 * System lookups the device screens need: the dictionary, the start-up data an app asks for before
 * it signs in, and the settings the console takes from the server at run time (the maps' tiles). The agent list of the device form's owner selector is the user list (resources/user.resource.json).
 */
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../http/route';
import type { RouteContext } from '../http/context';

/** What the console takes from the server's settings at run time rather than from its build. */
export interface ConsoleSettings {
  /** The maps' tile address (MAP_TILE_URL); empty: no tiles. */
  mapTileUrl: string;
}

export function registerSystemRoutes(app: FastifyInstance, ctx: RouteContext, settings: ConsoleSettings) {
  registerCall(app, ctx, {
    call: 'system.consoleSettings',
    handler: async () => settings,
  });

  registerCall(app, ctx, {
    call: 'system.dictionary',
    handler: async ({ body }) => {
      const key = typeof body.key === 'string' ? body.key : '';
      return ctx.db.selectFrom('t_sys_dic').select(['fId', 'fKey', 'fValue', 'fContent']).where('fKey', '=', key).orderBy('fSort').orderBy('fId').execute();
    },
  });

  // Declared by the legacy console (spec 002 §7) for an app's first screen: what it needs before signing
  // in — the server's time and zone, the languages, and every dictionary, so no lookup waits for a login.
  registerCall(app, ctx, {
    call: 'system.initialization',
    permission: null,
    handler: async () => {
      const rows = await ctx.db.selectFrom('t_sys_dic').select(['fId', 'fKey', 'fValue', 'fContent']).orderBy('fKey').orderBy('fSort').orderBy('fId').execute();
      const dictionaries: Record<string, unknown[]> = {};
      for (const r of rows) (dictionaries[r.fKey as string] ??= []).push(r);
      return { serverTime: new Date().toISOString(), timeZone: ctx.timeZone, languages: ['zh-CN', 'zh-TW', 'en-US'], dictionaries };
    },
  });

}
