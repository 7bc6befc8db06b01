// Package feeds detects the changes between two publications and writes
// what follows them: the change feed, sitemap lastmod, the AWP updates
// file and IndexNow notices.
package feeds
