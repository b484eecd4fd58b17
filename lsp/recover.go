package lsp

import (
	"fmt"
	"runtime/debug"

	"go.lsp.dev/protocol"
)

// A panic anywhere in the server is a bug, but one broken feature or one
// bad edit must not end the session: the editor would lose every feature
// at once, and an unrecovered panic on any goroutine exits the process.
// Every goroutine the server starts runs under recoverPanic, which reports
// the panic and lets the server go on.

// reportPanic writes a recovered panic with its stack to the server's log
// and tells the client: window/logMessage each time, window/showMessage
// the first time only, so a panic repeated on every keystroke does not
// flood the editor with pop-ups.
func (s *Server) reportPanic(where string, r any, stack []byte) {
	s.logf("panic in %s: %v\n%s", where, r, stack)
	msg := fmt.Sprintf("cute-lsp: internal error in %s: %v (the server goes on; the stack is in its log)", where, r)
	s.notify(protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: protocol.MessageTypeError, Message: msg})
	if s.panicShown.CompareAndSwap(false, true) {
		s.notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: msg})
	}
}

// recoverPanic is deferred by every goroutine the server starts and by the
// handlers run in its read loop.
func (s *Server) recoverPanic(where string) {
	if r := recover(); r != nil {
		s.reportPanic(where, r, debug.Stack())
	}
}

// goSafe runs fn on a new goroutine under recoverPanic.
func (s *Server) goSafe(where string, fn func()) {
	go func() {
		defer s.recoverPanic(where)
		fn()
	}()
}
