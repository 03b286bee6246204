// The memory allocator's settings a deployment gives the server's process (README "Deploying for customers", decision
// 64). glibc's malloc otherwise raises its mmap threshold each time a large block is freed, so later large blocks (the
// buffers of query results and of live streams) come from the heap, whose freed middle it does not give back: the
// live-tracking server's RSS then grew 4 to 10 MiB a minute under 2,000 streams, and came back only when they closed.
// With the threshold held at 64 KiB and freed memory above 128 KiB trimmed, it stayed flat. Read by bench:live, which
// starts its servers as deployed; other platforms' allocators ignore these variables.
export const DEPLOYED_MALLOC = { MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '131072' };
