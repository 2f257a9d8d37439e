package apitest

import (
	"context"
	"database/sql/driver"
	"io"
	"sync"
)

// fakeConnector is a database/sql driver of one table with one column: "INSERT" with one
// argument appends a row, "SELECT" returns every row twice over (the column twice), each text
// value as a []byte in one buffer that the driver overwrites from row to row, as real drivers do.
type fakeConnector struct {
	mu   sync.Mutex
	rows []driver.Value
}

func (c *fakeConnector) Connect(context.Context) (driver.Conn, error) { return &fakeConn{c}, nil }
func (c *fakeConnector) Driver() driver.Driver                        { return fakeDriver{c} }

type fakeDriver struct{ c *fakeConnector }

func (d fakeDriver) Open(string) (driver.Conn, error) { return &fakeConn{d.c}, nil }

type fakeConn struct{ c *fakeConnector }

func (c *fakeConn) Prepare(query string) (driver.Stmt, error) { return &fakeStmt{c.c, query}, nil }
func (c *fakeConn) Close() error                              { return nil }
func (c *fakeConn) Begin() (driver.Tx, error)                 { return nil, driver.ErrSkip }

type fakeStmt struct {
	c     *fakeConnector
	query string
}

func (s *fakeStmt) Close() error { return nil }
func (s *fakeStmt) NumInput() int {
	if s.query == "INSERT" {
		return 1
	}
	return 0
}

func (s *fakeStmt) Exec(args []driver.Value) (driver.Result, error) {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.rows = append(s.c.rows, args[0])
	return driver.RowsAffected(1), nil
}

func (s *fakeStmt) Query([]driver.Value) (driver.Rows, error) {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	return &fakeRows{rows: append([]driver.Value(nil), s.c.rows...)}, nil
}

type fakeRows struct {
	rows []driver.Value
	i    int
	buf  []byte // reused for every row's text
}

func (r *fakeRows) Columns() []string { return []string{"id", "id"} }
func (r *fakeRows) Close() error      { return nil }

func (r *fakeRows) Next(dest []driver.Value) error {
	if r.i == len(r.rows) {
		return io.EOF
	}
	v := r.rows[r.i]
	r.i++
	if s, ok := v.(string); ok {
		for i := range r.buf {
			r.buf[i] = '#'
		}
		r.buf = append(r.buf[:0], s...)
		v = r.buf
	}
	dest[0], dest[1] = v, v
	return nil
}
