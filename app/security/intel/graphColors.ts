/**
 * The call-relation graph's colours, in one place so the legend shows exactly what the renderer draws
 * (the page loads the renderer lazily and cannot take them from it).
 */
import type { EdgeType } from './api';

export const EDGE_COLORS: Record<EdgeType | 'own', string> = { address: '#1e88e5', tother: '#f57c00', totherHouse: '#8e24aa', own: '#b0bec5' };
/** `center` marks the phone that was searched for. */
export const NODE_COLORS = { person: '#e53935', phone: '#26a69a', center: '#fbc02d' };
