;;; session.el --- run by editors/emacs_test.go  -*- lexical-binding: t; -*-

;;; Commentary:

;; Emacs --batch: load editors/emacs/cute-mode.el, byte-compile it with
;; warnings as errors, open $CUTE_SHEET, record the major mode, the comment
;; settings and the face at each probe of $CUTE_PROBES ([[line, col]],
;; 1-based line, 0-based column; .cu files open in c++-mode).  With
;; $CUTE_CLIENT set to eglot or lsp-mode, connect that client to
;; $CUTE_LSP_BIN as cute-mode.el registers it, wait for the diagnostics of the sheet, and ask for the hover
;; at $CUTE_HOVER_AT.  Writes everything to $CUTE_RESULT as JSON.

;;; Code:

(require 'json)
(require 'cl-lib)

(defvar cute-test-result nil)

(defun cute-test-put (key value)
  "Record VALUE under KEY."
  (push (cons key value) cute-test-result))

(defun cute-test-finish ()
  "Write the result and leave Emacs."
  (let ((coding-system-for-write 'utf-8))
    (with-temp-file (getenv "CUTE_RESULT")
      (insert (json-encode cute-test-result))))
  (kill-emacs 0))

(defun cute-test-goto (line col)
  "Go to 1-based LINE and 0-based COL."
  (goto-char (point-min))
  (forward-line (1- line))
  (forward-char col))

(defun cute-test-wait (predicate seconds)
  "Let processes and timers run until PREDICATE holds or SECONDS pass."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall predicate)))

(defun cute-test-faces ()
  "The faces at each probe, as strings."
  (font-lock-ensure)
  (vconcat
   (mapcar (lambda (probe)
             (cute-test-goto (aref probe 0) (aref probe 1))
             (let ((face (get-text-property (point) 'face)))
               (format "%s" (if (consp face) (car face) face))))
           (json-read-from-string (getenv "CUTE_PROBES")))))

(defun cute-test-hover-value (hover)
  "The text of a HOVER answer (a plist)."
  (let ((contents (plist-get hover :contents)))
    (cond ((stringp contents) contents)
          ((plist-get contents :value))
          (t (format "%S" contents)))))

(defun cute-test-eglot ()
  "Connect eglot as cute-mode.el registers it; diagnostics and hover."
  (require 'eglot)
  (cute-test-put 'eglot_contact (format "%S" (cdr (assq 'cute-mode eglot-server-programs))))
  (apply #'eglot (eglot--guess-contact))
  (let ((server (eglot-current-server)))
    (unless server (error "Eglot did not connect"))
    (flymake-start)
    (unless (cute-test-wait (lambda () (flymake-diagnostics)) 20)
      (error "No diagnostics arrived"))
    (cute-test-put 'diagnostics (vconcat (mapcar (lambda (d) (list (cons 'line (line-number-at-pos (flymake-diagnostic-beg d)))
                                                                     (cons 'text (flymake-diagnostic-text d))))
                                                 (flymake-diagnostics))))
    (let ((at (json-read-from-string (getenv "CUTE_HOVER_AT"))))
      (cute-test-goto (aref at 0) (aref at 1)))
    (cute-test-put 'hover (cute-test-hover-value
                           (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))))
    (eglot-shutdown server)))

(defvar lsp-client-packages)
(defvar lsp-enable-snippet)
(defvar lsp-modeline-workspace-status-enable)
(defvar lsp-modeline-code-actions-enable)
(defvar lsp-modeline-diagnostics-enable)
(defvar lsp-headerline-breadcrumb-enable)
(defvar lsp-session-file)
(defvar lsp-auto-guess-root)
(defvar lsp-enable-file-watchers)
(defvar lsp-restart)
(defvar lsp-keep-workspace-alive)
(declare-function lsp "lsp-mode")
(declare-function lsp-workspaces "lsp-mode")
(declare-function lsp--workspace-print "lsp-mode")
(declare-function lsp-request "lsp-mode")
(declare-function lsp--text-document-position-params "lsp-mode")
(declare-function lsp-diagnostics "lsp-mode")
(declare-function lsp-workspace-shutdown "lsp-mode")

(defun cute-test-lsp-mode ()
  "Start lsp-mode with cute-lsp as registered by cute-mode.el; diagnostics and hover."
  ;; Only the server under test: lsp-mode would otherwise load its ~100
  ;; client packages first (seconds, and nothing to do with cute-lsp).
  (setq lsp-client-packages nil)
  (require 'lsp-mode)
  (setq lsp-session-file (expand-file-name "lsp-session" temporary-file-directory)
        lsp-auto-guess-root t
        lsp-enable-file-watchers nil
        lsp-enable-snippet nil
        lsp-modeline-workspace-status-enable nil
        lsp-modeline-code-actions-enable nil
        lsp-modeline-diagnostics-enable nil
        lsp-headerline-breadcrumb-enable nil
        lsp-restart 'ignore
        lsp-keep-workspace-alive nil)
  (lsp)
  (unless (cute-test-wait (lambda () (lsp-workspaces)) 20)
    (error "Lsp-mode did not start a workspace"))
  (cute-test-put 'workspaces (vconcat (mapcar #'lsp--workspace-print (lsp-workspaces))))
  (unless (cute-test-wait (lambda () (> (hash-table-count (lsp-diagnostics t)) 0)) 20)
    (error "No diagnostics arrived"))
  (let (found)
    (maphash (lambda (_file diags)
               (dolist (d diags)
                 (push (list (cons 'line (1+ (gethash "line" (gethash "start" (gethash "range" d)))))
                             (cons 'text (gethash "message" d))
                             (cons 'code (format "%s" (gethash "code" d)))
                             (cons 'severity (gethash "severity" d)))
                       found)))
             (lsp-diagnostics t))
    (cute-test-put 'diagnostics (vconcat found)))
  (let ((at (json-read-from-string (getenv "CUTE_HOVER_AT"))))
    (cute-test-goto (aref at 0) (aref at 1)))
  (let* ((hover (lsp-request "textDocument/hover" (lsp--text-document-position-params)))
         (contents (gethash "contents" hover)))
    (cute-test-put 'hover (if (hash-table-p contents) (gethash "value" contents) (format "%s" contents)))))

(when (getenv "CUTE_TIMING") (load (getenv "CUTE_TIMING")))
(condition-case err
    (progn
      (add-to-list 'load-path (getenv "CUTE_EMACS_DIR"))
      (require 'cute-mode)
      (let* ((out (make-temp-file "cute-mode" nil ".elc"))
             (byte-compile-dest-file-function (lambda (_) out))
             (byte-compile-error-on-warn t))
        (cute-test-put 'compiled (if (byte-compile-file (locate-library "cute-mode.el")) t :json-false)))
      ;; Emacs has no mode for CUDA by default: users map .cu to c++-mode.
      (add-to-list 'auto-mode-alist '("\\.cuh?\\'" . c++-mode))
      (find-file (getenv "CUTE_SHEET"))
      (cute-test-put 'mode (symbol-name major-mode))
      (cute-test-put 'comment_start comment-start)
      (cute-test-put 'faces (cute-test-faces))
      (setq cute-server-command (list (getenv "CUTE_LSP_BIN") "serve" "--stdio"))
      ;; A table cut at 2 rows shows that the settings reach the server.
      (setq cute-server-settings (list :tableCap 2))
      (pcase (getenv "CUTE_CLIENT")
        ("eglot" (cute-test-eglot))
        ("lsp-mode" (cute-test-lsp-mode))))
  (error (cute-test-put 'error (error-message-string err))))
(cute-test-finish)

;;; session.el ends here
