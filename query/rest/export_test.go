package rest

// GinPath is ginPath, for routes_test.go.
var GinPath = ginPath

// ChooseEncoding is chooseEncoding, for encoding_test.go.
var ChooseEncoding = chooseEncoding
