package assets

import _ "embed"

// The Go fonts without hinting (see the package comment).
var (
	//go:embed fonts/go-regular.ttf
	GoRegular []byte
	//go:embed fonts/go-bold.ttf
	GoBold []byte
	//go:embed fonts/go-mono.ttf
	GoMono []byte
	//go:embed fonts/go-italic.ttf
	GoItalic []byte
)
