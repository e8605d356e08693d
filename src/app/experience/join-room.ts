/**
 * Joining a workshop room from the link its host shares (room-link.ts). The page reads it once, fills
 * the Experience view's HTTP endpoint with it, and takes it out of the address bar (and so out of
 * the history and any copied URL), since it may hold the room's key.
 */
import { applyExperience, httpApiKey, httpEndpoint, httpModel } from './experience-store.ts';
import { experienceKind, error, joinedRoom, note } from './experience-state.ts';
import { readRoomLink } from './room-link.ts';

/** Read the room from the address, fill the HTTP endpoint with it and clear the address; true when one was joined. */
export function joinRoomFromLocation(): boolean {
  const room = readRoomLink(window.location.hash);
  if (!room) return false;
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}#experience`);
  experienceKind.value = 'http';
  httpEndpoint.value = room.endpoint;
  httpModel.value = room.model;
  httpApiKey.value = room.apiKey ?? '';
  joinedRoom.value = { ...room, participant: crypto.randomUUID() };
  return true;
}

/** Use the joined room's endpoint as the view's backend, and say so (or show why it could not be used). */
export async function connectJoinedRoom(): Promise<void> {
  const room = joinedRoom.value;
  if (!room) return;
  await applyExperience();
  if (error.value === null) note.value = `You joined the room at ${new URL(room.endpoint).host}: its ${room.model} model answers this view's steps.`;
}
