// Package pipeline runs the batch side of the registry: one run reads the
// sources, calls the compile, render, export and feeds stages, does only
// the work whose inputs changed (content hashes), and publishes the result
// with one atomic rename; it also holds the cron schedule. It is the only
// package besides cmd that reads the clock.
package pipeline
