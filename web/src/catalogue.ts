// The games the server offers, read once from `GET /api/games/catalogue`: the pages hold no
// list of games of their own (names, authors, sizes and colours come from the engines).

import { api } from './api';
import type { CatalogueEntry, Schemas } from './types';

let entries: CatalogueEntry[] = [];

/** The catalogue, asked of the server the first time only. */
export async function loadCatalogue(): Promise<CatalogueEntry[]> {
  if (entries.length === 0) {
    entries = (await api<Schemas['Catalogue']>('GET', '/api/games/catalogue')).games;
  }
  return entries;
}

/** A game's entry, once the catalogue is loaded. */
export function catalogueEntry(id: string): CatalogueEntry | undefined {
  return entries.find((entry) => entry.id === id);
}

/** The game's display name (its id until the catalogue is loaded). */
export function gameTitle(id: string): string {
  return catalogueEntry(id)?.name ?? id;
}
