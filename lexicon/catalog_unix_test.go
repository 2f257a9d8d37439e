//go:build unix

package lexicon

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe called *.json in a schema directory is left out, not read: reading it would
// wait for a writer for ever (LoadDir once did).
func TestLoadDirSkipsNamedPipe(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"lexicon": 1, "id": "com.example.a", "defs": {"main": {"type": "token"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "b.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		c, err := LoadDir(dir)
		if err == nil && len(c.Schemas()) != 1 {
			t.Errorf("LoadDir read %d schemas, want 1", len(c.Schemas()))
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("LoadDir: %v", err)
		}
	case <-time.After(10 * time.Second): // a hang detector, not a timing
		t.Fatal("LoadDir waited on the named pipe")
	}
}
