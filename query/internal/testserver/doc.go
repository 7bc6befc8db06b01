// Package testserver is the serving side's test rig, shared by the tests
// of query/rest and query/mcp: the test registry, published by the
// pipeline as production publishes, a real server on loopback over it
// with the MCP endpoint mounted as daawid serve mounts it, action runs on
// a store of their own, MCP clients, and the load helpers of the
// benchmarks. Only tests import it: it is the one place on the serving
// side that uses the pipeline, to make publications to serve.
package testserver
