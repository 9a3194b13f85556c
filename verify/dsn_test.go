package verify

import (
	"strings"
	"testing"
)

func TestParseDSN(t *testing.T) {
	for _, dsn := range []string{
		"host=/tmp port=5432 dbname=postgres application_name=bufferlab",
		"host=/tmp options='-c search_path=x' sslmode=disable connect_timeout=3",
		"postgres://u@localhost:5433/db?sslmode=disable&application_name=x",
		"",
	} {
		if _, err := ParseDSN(dsn); err != nil {
			t.Errorf("%q: %v", dsn, err)
		}
	}
	for _, c := range []struct{ dsn, want string }{
		// pgx takes an unknown word as a server setting; libpq refuses it.
		{"garbage==", `invalid connection option "garbage": expected libpq keywords (host, port, dbname, user, password, sslmode, …, or a postgres:// URL)`},
		{"host=/tmp search_path=x zz=1", `invalid connection options "search_path", "zz": expected libpq keywords`},
		{"postgres://u@h/db?garbage=1", `invalid connection option "garbage"`},
		// pgx's own parse errors.
		{"garbage", "cannot parse `garbage`: failed to parse as keyword/value (invalid keyword/value)"},
		{"host='x", "unterminated quoted string"},
		{"host=/tmp port=notaport", "invalid port"},
	} {
		_, err := ParseDSN(c.dsn)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.dsn, err, c.want)
		}
	}
}
