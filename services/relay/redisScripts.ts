// The Redis store's Lua scripts. Redis runs a script alone, so each is one atomic step for every relay instance: a
// publish checks the quotas, evicts, stores and notifies with nothing in between. Keys (after the store's prefix):
//   seq            the last message id (INCR)
//   m:<id>         hash of a message: topic, publisher, bytes, exp (expiresAt, ms), body (its JSON without the id)
//   t:<topic>      zset of the topic's message ids (score: id, so oldest first)
//   age            zset of every message id (score: id): what the totals evict from
//   exp            zset of every message id by expiresAt: what the sweep removes
//   ab:<publisher> the bytes a client has stored; at:<publisher> hash topic -> its messages there
//   totals         hash: messages, bytes, topics, evicted
// Channel c:<topic> carries each new message's JSON (with its id) to the instances that watch the topic.
// Every script takes ARGV[1] = the prefix and ARGV[2] = the relay's clock in ms; ids stay far below 2^53.

const common = `
local prefix = ARGV[1]
local nowMs = tonumber(ARGV[2])
local totalsKey = prefix .. 'totals'

local function total(field)
  return tonumber(redis.call('HGET', totalsKey, field) or '0')
end

-- Removes a message from its topic and the indexes, and gives its bytes back to its publisher.
local function release(id)
  local messageKey = prefix .. 'm:' .. id
  local fields = redis.call('HMGET', messageKey, 'topic', 'publisher', 'bytes')
  if not fields[1] then return end
  local topic, publisher, bytes = fields[1], fields[2], tonumber(fields[3])
  redis.call('DEL', messageKey)
  redis.call('ZREM', prefix .. 'age', id)
  redis.call('ZREM', prefix .. 'exp', id)
  local topicKey = prefix .. 't:' .. topic
  redis.call('ZREM', topicKey, id)
  if redis.call('ZCARD', topicKey) == 0 then redis.call('HINCRBY', totalsKey, 'topics', -1) end
  local bytesKey = prefix .. 'ab:' .. publisher
  if redis.call('DECRBY', bytesKey, bytes) <= 0 then redis.call('DEL', bytesKey) end
  local topicsKey = prefix .. 'at:' .. publisher
  if redis.call('HINCRBY', topicsKey, topic, -1) <= 0 then redis.call('HDEL', topicsKey, topic) end
  redis.call('HINCRBY', totalsKey, 'messages', -1)
  redis.call('HINCRBY', totalsKey, 'bytes', -bytes)
end

local function payload(id, body)
  return '{"id":' .. id .. ',' .. string.sub(body, 2)
end
`

/**
 * ARGV: prefix, now, floorId (no id may be handed out at or below it), publisher, maxMessagesPerTopic,
 * maxStoredTopicsPerClient, maxStoredBytesPerClient, maxStoredTopicsTotal, maxStoredBytesTotal, then per message: topic,
 * expiresAt, bytes, body. Stores every message or none (the steps of memoryStore's `store`, in the same order) and
 * publishes each on its topic's channel. Returns {1, id, …} or {0, the per-client limit it would pass}.
 */
export const publishScript = `${common}
local floorId = tonumber(ARGV[3])
local publisher = ARGV[4]
local maxPerTopic, maxTopicsPerClient, maxBytesPerClient = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local maxTopicsTotal, maxBytesTotal = tonumber(ARGV[8]), tonumber(ARGV[9])
local bytesKey = prefix .. 'ab:' .. publisher
local topicsKey = prefix .. 'at:' .. publisher

local function evictOldest()
  local oldest = redis.call('ZRANGE', prefix .. 'age', 0, 0)[1]
  if not oldest then return false end
  release(oldest)
  redis.call('HINCRBY', totalsKey, 'evicted', 1)
  return true
end

local function store(topic, expiresAt, bytes, body)
  local topicKey = prefix .. 't:' .. topic
  -- 1. Room on the topic: its expired messages go, then a full topic gives up its oldest.
  for _, id in ipairs(redis.call('ZRANGE', topicKey, 0, -1)) do
    if tonumber(redis.call('HGET', prefix .. 'm:' .. id, 'exp')) <= nowMs then release(id) end
  end
  local evicted, ownFreed = nil, 0
  if redis.call('ZCARD', topicKey) >= maxPerTopic then
    evicted = redis.call('ZRANGE', topicKey, 0, 0)[1]
    local fields = redis.call('HMGET', prefix .. 'm:' .. evicted, 'publisher', 'bytes')
    if fields[1] == publisher then ownFreed = tonumber(fields[2]) end
  end
  -- 2. The publisher's own limits.
  if redis.call('HEXISTS', topicsKey, topic) == 0 and redis.call('HLEN', topicsKey) >= maxTopicsPerClient then
    return nil, 'maxStoredTopicsPerClient'
  end
  if tonumber(redis.call('GET', bytesKey) or '0') - ownFreed + bytes > maxBytesPerClient then
    return nil, 'maxStoredBytesPerClient'
  end
  -- 3. Room under the totals: the oldest messages relay-wide go.
  if evicted then release(evicted) end
  while redis.call('ZCARD', topicKey) == 0 and total('topics') >= maxTopicsTotal and evictOldest() do end
  while total('bytes') + bytes > maxBytesTotal and evictOldest() do end
  -- 4. Store.
  if tonumber(redis.call('GET', prefix .. 'seq') or '0') < floorId then redis.call('SET', prefix .. 'seq', floorId) end
  local id = redis.call('INCR', prefix .. 'seq')
  if redis.call('ZCARD', topicKey) == 0 then redis.call('HINCRBY', totalsKey, 'topics', 1) end
  redis.call('HSET', prefix .. 'm:' .. id, 'topic', topic, 'publisher', publisher, 'bytes', bytes, 'exp', expiresAt, 'body', body)
  redis.call('ZADD', topicKey, id, id)
  redis.call('ZADD', prefix .. 'age', id, id)
  redis.call('ZADD', prefix .. 'exp', expiresAt, id)
  redis.call('INCRBY', bytesKey, bytes)
  redis.call('HINCRBY', topicsKey, topic, 1)
  redis.call('HINCRBY', totalsKey, 'messages', 1)
  redis.call('HINCRBY', totalsKey, 'bytes', bytes)
  return id
end

local ids = {}
for base = 10, #ARGV, 4 do
  local id, refusedBy = store(ARGV[base], ARGV[base + 1], tonumber(ARGV[base + 2]), ARGV[base + 3])
  if not id then
    for _, stored in ipairs(ids) do release(stored) end
    return {0, refusedBy}
  end
  ids[#ids + 1] = id
end
for index, id in ipairs(ids) do
  local base = 10 + (index - 1) * 4
  redis.call('PUBLISH', prefix .. 'c:' .. ARGV[base], payload(id, ARGV[base + 3]))
end
return {1, unpack(ids)}
`

/**
 * ARGV: prefix, now, reader, maxBytes, then per topic: topic, afterId, skipFromId, skipToId. Reads like memoryStore's
 * fetch: live messages in id order, not the reader's own, until maxBytes. Returns {lastId, {examinedUpTo, isComplete,
 * …per topic}, {message JSON, …}}.
 */
export const fetchScript = `${common}
local reader, maxBytes = ARGV[3], tonumber(ARGV[4])
local marks, payloads, bytes, isCut = {}, {}, 0, false
for base = 5, #ARGV, 4 do
  local examined, isComplete = tonumber(ARGV[base + 1]), 0
  local skipFrom, skipTo = tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3])
  if not isCut then
    isComplete = 1
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', prefix .. 't:' .. ARGV[base], '(' .. ARGV[base + 1], '+inf')) do
      local numeric = tonumber(id)
      if numeric <= skipFrom or numeric > skipTo then
        local fields = redis.call('HMGET', prefix .. 'm:' .. id, 'publisher', 'exp', 'bytes', 'body')
        if fields[1] ~= reader and tonumber(fields[2]) > nowMs then
          local size = tonumber(fields[3])
          if #payloads > 0 and bytes + size > maxBytes then
            isCut, isComplete = true, 0
            break
          end
          bytes = bytes + size
          payloads[#payloads + 1] = payload(id, fields[4])
        end
      end
      examined = numeric
    end
  end
  marks[#marks + 1] = examined
  marks[#marks + 1] = isComplete
end
return {tonumber(redis.call('GET', prefix .. 'seq') or '0'), marks, payloads}
`

/** ARGV: prefix, now, batch. Removes up to `batch` expired messages; returns how many. */
export const sweepScript = `${common}
local expired = redis.call('ZRANGEBYSCORE', prefix .. 'exp', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(expired) do release(id) end
return #expired
`

/**
 * ARGV: prefix, now, floorId. After Redis restarted without its data (or from an older snapshot) the id counter may be
 * below ids the relay already handed out: this raises it to floorId and returns 1 if it was below, else 0.
 */
export const raiseLastIdScript = `${common}
if tonumber(redis.call('GET', prefix .. 'seq') or '0') < tonumber(ARGV[3]) then
  redis.call('SET', prefix .. 'seq', ARGV[3])
  return 1
end
return 0
`
