// Lua run inside Redis, so each step is atomic however many processes share the server.

/**
 * Save: KEYS[1] the record, KEYS[2..5] the status sets in rank order (open, closing,
 * pending-summary, closed), KEYS[6] the person's set of sessions, KEYS[7] the person's forget
 * epoch; ARGV[1] the id, ARGV[2] the record as keyv stores it, ARGV[3] its status's rank (0–3),
 * ARGV[4] the forget epoch the record was made under. Returns -1 when written (and moved into its
 * status's set); -2 when the person forgot something since the record was made (the epoch it
 * needs: the person's, or while a forget runs the even one after it); else the rank of the
 * stored status that is further along. A refused record writes nothing.
 */
export const SAVE_RECORD = `
local epoch = tonumber(redis.call('GET', KEYS[7]) or '0')
if tonumber(ARGV[4]) < epoch + epoch % 2 then return -2 end
local rank = tonumber(ARGV[3])
for i = 2, 5 do
  if i - 2 > rank and redis.call('SISMEMBER', KEYS[i], ARGV[1]) == 1 then return i - 2 end
end
redis.call('SET', KEYS[1], ARGV[2])
for i = 2, 5 do
  if i - 2 == rank then redis.call('SADD', KEYS[i], ARGV[1]) else redis.call('SREM', KEYS[i], ARGV[1]) end
end
redis.call('SADD', KEYS[6], ARGV[1])
return -1
`;

/** Delete: KEYS[1] the record, KEYS[2..5] the status sets, KEYS[6] the person's set; ARGV[1] the id. */
export const DELETE_RECORD = `
redis.call('DEL', KEYS[1])
for i = 2, 5 do redis.call('SREM', KEYS[i], ARGV[1]) end
redis.call('SREM', KEYS[6], ARGV[1])
return 0
`;

/**
 * A forget begins: KEYS[1] the person's forget epoch, moved to the next odd number (a forget left
 * unfinished by a dead process is odd already: the one after). Returns it.
 */
export const BEGIN_FORGET = `
local epoch = tonumber(redis.call('GET', KEYS[1]) or '0')
epoch = epoch + 1 + epoch % 2
redis.call('SET', KEYS[1], epoch)
return epoch
`;

/** A forget ends: KEYS[1] the person's forget epoch; ARGV[1] the even epoch it began with, set only if no later forget began. */
export const END_FORGET = `
if tonumber(redis.call('GET', KEYS[1]) or '0') == tonumber(ARGV[1]) - 1 then redis.call('SET', KEYS[1], ARGV[1]) end
return 0
`;

/**
 * Migration to the person index: KEYS[1] a record, KEYS[2] its person's set; ARGV[1] the id.
 * Added only while the record exists, so a session deleted meanwhile is not listed again.
 */
export const INDEX_PERSON = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('SADD', KEYS[2], ARGV[1]) end
return 0
`;

/** Claim: KEYS[1] the claim; ARGV[1] the owner, ARGV[2] ttl in ms, ARGV[3] a holder to take it from (or ""). 1 when the owner holds it now. */
export const CLAIM = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and holder ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** Release: KEYS[1] the claim; ARGV[1] the owner. Deletes it only while that owner holds it. */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;
