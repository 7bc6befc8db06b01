package rest

// GinPath is ginPath, for routes_test.go.
var GinPath = ginPath
