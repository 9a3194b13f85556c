package verify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
)

// libpqKeywords are the connection-string keywords libpq knows
// (PQconninfoOptions, fe-connect.c, PG 15, and the ones pgx also reads that
// later releases added). libpq refuses any other word ("invalid
// connection option"); pgx instead sends it to the server as a setting, so
// that "garbage==" parses, and the error comes later, from connecting to
// the default socket.
var libpqKeywords = map[string]bool{
	"service": true, "user": true, "password": true, "passfile": true, "channel_binding": true,
	"connect_timeout": true, "dbname": true, "host": true, "hostaddr": true, "port": true,
	"client_encoding": true, "options": true, "application_name": true, "fallback_application_name": true,
	"keepalives": true, "keepalives_idle": true, "keepalives_interval": true, "keepalives_count": true,
	"tcp_user_timeout": true, "sslmode": true, "sslcompression": true, "sslcert": true, "sslkey": true,
	"sslpassword": true, "sslrootcert": true, "sslcrl": true, "sslcrldir": true, "sslsni": true,
	"requirepeer": true, "ssl_min_protocol_version": true, "ssl_max_protocol_version": true,
	"gssencmode": true, "krbsrvname": true, "gsslib": true, "replication": true, "target_session_attrs": true,
	// PG 16–18 (pgx reads them too).
	"require_auth": true, "sslcertmode": true, "sslnegotiation": true,
	"min_protocol_version": true, "max_protocol_version": true,
}

// ParseDSN parses a libpq connection string or URL as `bufferlab verify
// --dsn` takes it, without connecting: pgx's parse errors (an unterminated
// quote, a port that is not a number), and, as libpq would, a keyword that
// libpq does not know. A server setting goes in options='-c name=value'.
func ParseDSN(dsn string) (*pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	var unknown []string
	for k := range cfg.RuntimeParams {
		if !libpqKeywords[k] {
			unknown = append(unknown, fmt.Sprintf("%q", k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		option := "option"
		if len(unknown) > 1 {
			option = "options"
		}
		return nil, fmt.Errorf("invalid connection %s %s: expected libpq keywords (host, port, dbname, user, password, sslmode, …, or a postgres:// URL); a server setting goes in options='-c name=value'",
			option, strings.Join(unknown, ", "))
	}
	return cfg, nil
}
