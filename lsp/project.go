package lsp

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/project"
	"go.lsp.dev/protocol"
)

// projectConfigs caches, by folder, the project configuration
// (.cute-lsp.json) that applies to the documents in it. An entry is looked
// up again after projectConfigTTL, so an edited configuration takes effect
// within that long without a file watcher; a document outside every
// workspace folder gets none (nothing above a folder is read).
type projectConfigs struct {
	mu       sync.Mutex
	byDir    map[string]projectEntry
	reported string // the last configuration error shown to the user
}

type projectEntry struct {
	cfg *project.Config
	at  time.Time
}

const projectConfigTTL = 2 * time.Second

// projectConfig is the configuration that applies to a document, or nil.
func (s *Server) projectConfig(docURI string) *project.Config {
	path := filePath(docURI)
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	root := ""
	for _, r := range s.workspaceRoots() {
		if within(dir, r) && len(r) > len(root) {
			root = r
		}
	}
	if root == "" {
		return nil
	}
	pc := &s.projects
	pc.mu.Lock()
	if e, ok := pc.byDir[dir]; ok && time.Since(e.at) < projectConfigTTL {
		pc.mu.Unlock()
		return e.cfg
	}
	pc.mu.Unlock()
	cfg, err := project.FindWithin(dir, root)
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.byDir == nil || len(pc.byDir) > 10000 {
		pc.byDir = map[string]projectEntry{}
	}
	if err != nil {
		// A broken configuration applies nothing; the user is told once
		// per distinct mistake, with its line and column.
		if msg := err.Error(); msg != pc.reported {
			pc.reported = msg
			s.logf("project configuration: %v", err)
			s.notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: "cute-lsp: " + msg})
		}
		cfg = nil
	}
	pc.byDir[dir] = projectEntry{cfg: cfg, at: time.Now()}
	return cfg
}

// withProject is cfg with the project's element type and architecture
// where the editor has not set its own.
func withProject(cfg Config, p *project.Config) Config {
	if p == nil {
		return cfg
	}
	if p.DefaultElementType != "" && !cfg.set.elementType {
		cfg.DefaultElementType = p.DefaultElementType
	}
	if p.Arch != "" && !cfg.set.arch {
		cfg.Arch = p.Arch
	}
	return cfg
}

// projectFindings applies the project's severities to a document's
// findings, and drops them all for a document its excludes name.
func (s *Server) projectFindings(docURI string, findings []analysis.Finding) []analysis.Finding {
	p := s.projectConfig(docURI)
	if p == nil {
		return findings
	}
	if path := filePath(docURI); path != "" && p.Excluded(path) {
		return nil
	}
	return p.Apply(findings)
}
