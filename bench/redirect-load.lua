-- The wrk load of `bench:redirect` (wrk -s bench/redirect-load.lua; CODES=<file of codes, one per line>):
-- GETs /s/<random code> with a browser User-Agent, and prints one JSON line when done (times in ms).
local codes = {}
for line in io.lines(os.getenv("CODES")) do codes[#codes + 1] = line end
local threads = 0
setup = function(thread)
  threads = threads + 1
  thread:set("seed", os.time() * 100 + threads)
end
init = function()
  math.randomseed(seed)
end

wrk.headers["User-Agent"] =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
wrk.headers["Referer"] = "https://news.ycombinator.com/"
-- COOKIE: sent with every request (a password-protected link's remembered password).
if os.getenv("COOKIE") then wrk.headers["Cookie"] = os.getenv("COOKIE") end

request = function()
  return wrk.format("GET", "/s/" .. codes[math.random(#codes)])
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"total":%d,"seconds":%.3f,"p50":%.3f,"p99":%.3f,"max":%.3f,"status":%d,"errors":%d,"timeouts":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, e.status, e.connect + e.read + e.write, e.timeout))
end
