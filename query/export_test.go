package query

// PublishFixtures is publishFixtures for the tests of package query_test:
// a publication without the server's indexes, as older pipelines wrote
// them, so that those tests read the document index as before.
var PublishFixtures = publishFixtures
