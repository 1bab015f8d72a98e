// Lua run inside Redis, so each step is atomic however many processes share the server.

/**
 * Save: KEYS[1] the record, KEYS[2..5] the status sets in rank order (open, closing,
 * pending-summary, closed); ARGV[1] the id, ARGV[2] the record as keyv stores it, ARGV[3] its
 * status's rank (0–3). Returns -1 when written (and moved into its status's set), else the rank
 * of the stored status that is further along, and writes nothing.
 */
export const SAVE_RECORD = `
local rank = tonumber(ARGV[3])
for i = 2, 5 do
  if i - 2 > rank and redis.call('SISMEMBER', KEYS[i], ARGV[1]) == 1 then return i - 2 end
end
redis.call('SET', KEYS[1], ARGV[2])
for i = 2, 5 do
  if i - 2 == rank then redis.call('SADD', KEYS[i], ARGV[1]) else redis.call('SREM', KEYS[i], ARGV[1]) end
end
return -1
`;

/** Delete: KEYS[1] the record, KEYS[2..5] the status sets; ARGV[1] the id. */
export const DELETE_RECORD = `
redis.call('DEL', KEYS[1])
for i = 2, 5 do redis.call('SREM', KEYS[i], ARGV[1]) end
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
