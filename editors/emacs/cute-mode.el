;;; cute-mode.el --- CuTe layout sheets, and cute-lsp for eglot and lsp-mode  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages, tools
;; URL: https://github.com/cute-lsp/cute-lsp

;;; Commentary:

;; A major mode for cute-lsp's layout sheets (.cute files): syntax table,
;; comments (# and //), font-lock for the sheet language (bindings, assert,
;; layouts such as (2,(2,2)):(4,(2,1)), static integers _8, basis strides
;; 1@0, swizzles Sw<3,4,3>, the composition o, tilers [32:1;8:1], calls,
;; strings, !cute.layout<"..."> and TIRx S[...] + R[...]).
;;
;; It registers the server `cute-lsp serve --stdio':
;;
;; - with eglot, for `cute-mode' buffers.  Eglot runs one server per major
;;   mode, so it cannot run cute-lsp beside clangd or pyright in C++ and
;;   Python buffers; `cute-eglot-host-modes' (empty by default) lists the
;;   modes where cute-lsp should replace the usual server.
;; - with lsp-mode, as an add-on server: in `cute-mode' buffers alone, and in
;;   C/C++/CUDA, Python and MLIR buffers beside clangd or pyright.
;;
;;   (add-to-list 'load-path "/path/to/cute-lsp/editors/emacs")
;;   (require 'cute-mode)
;;   (add-hook 'cute-mode-hook #'eglot-ensure)   ; or #'lsp-deferred

;;; Code:

(require 'seq)

(defgroup cute nil
  "CuTe layout sheets and the cute-lsp language server."
  :group 'languages
  :prefix "cute-")

(defcustom cute-server-command '("cute-lsp" "serve" "--stdio")
  "The command that starts the cute-lsp server on stdio.
`make install' in the cute-lsp checkout puts cute-lsp on PATH."
  :type '(repeat string))

(defcustom cute-server-settings '(:tableCap 64 :defaultElementType "half_t" :arch "sm90")
  "The server settings (section \"cute\"), sent at start."
  :type 'plist)

(defcustom cute-eglot-host-modes nil
  "Major modes in which eglot should run cute-lsp instead of their usual server.
Eglot runs one server per buffer, so listing `c++-mode' here replaces
clangd there.  lsp-mode users get cute-lsp beside clangd without this."
  :type '(repeat symbol))

(defgroup cute-faces nil
  "Faces of `cute-mode'."
  :group 'cute)

(defface cute-number-face '((t :inherit font-lock-constant-face))
  "Integers of a layout.")

(defface cute-static-face '((t :inherit font-lock-constant-face :weight bold))
  "CuTe's static integers, such as _8.")

(defface cute-basis-face '((t :inherit font-lock-builtin-face))
  "Basis strides and axes, such as 1@0 or 4@laneid.")

(defface cute-dynamic-face '((t :inherit font-lock-builtin-face))
  "Dynamic values, such as ? or ?{i64}.")

(defface cute-operator-face '((t :inherit font-lock-keyword-face))
  "The composition o, is, ==.")

(defvar cute-mode-syntax-table
  (let ((st (make-syntax-table)))
    ;; # comments to the end of the line; // too (style a, two characters).
    (modify-syntax-entry ?# "<" st)
    (modify-syntax-entry ?/ ". 12" st)
    (modify-syntax-entry ?\n ">" st)
    (modify-syntax-entry ?\" "\"" st)
    (modify-syntax-entry ?\\ "\\" st)
    (modify-syntax-entry ?_ "_" st)
    (dolist (c '(?@ ?? ?: ?\; ?, ?= ?+ ?! ?. ?< ?>))
      (modify-syntax-entry c "." st))
    st)
  "Syntax table of `cute-mode'.")

(defconst cute--ident "[A-Za-z_][A-Za-z0-9_]*")

(defconst cute-font-lock-keywords
  `(;; Bindings: the name before a single =.
    (,(concat "^[ \t]*\\(" cute--ident "\\)[ \t]*=\\(?:[^=]\\|$\\)") 1 font-lock-variable-name-face)
    ("\\_<\\(assert\\)\\_>" 1 font-lock-keyword-face)
    ("\\_<\\(is\\)\\_>" 1 'cute-operator-face)
    ("==\\|!=" . 'cute-operator-face)
    ("[ \t)>]\\(o\\)[ \t]" 1 'cute-operator-face)
    ("\\_<\\(Sw\\)<" 1 font-lock-type-face)
    ("\\_<SW_-?[0-9]+_-?[0-9]+_-?[0-9]+\\_>" . font-lock-type-face)
    ("\\_<[a-z]mem_ptr\\_>" . font-lock-type-face)
    ("!cute\\.[A-Za-z_][A-Za-z0-9_]*" . font-lock-type-face)
    ("\\_<\\([SR]\\)\\[" 1 font-lock-type-face)
    (,(concat "\\(" cute--ident "\\)[ \t]*(") 1 font-lock-function-name-face)
    ;; A number that carries basis indices or axes: 1@0, 3@1@0, 1/2@0, 4@laneid.
    (,(concat "\\(?:^\\|[^A-Za-z0-9_.]\\)\\(-?[0-9]+\\(?:/[0-9]+\\)?\\(?:@\\(?:[0-9]+\\|" cute--ident "\\)\\)+\\)")
     1 'cute-basis-face)
    ("\\(?:^\\|[^A-Za-z0-9_.]\\)\\(_-?[0-9]+\\)\\_>" 1 'cute-static-face)
    ("\\?\\(?:{[^}\n]*}\\)?" . 'cute-dynamic-face)
    ("\\(?:^\\|[^A-Za-z0-9_.@]\\)\\(-?[0-9]+b?\\)\\_>" 1 'cute-number-face keep))
  "Font-lock rules of `cute-mode'.
Strings and comments come from the syntax table.")

;;;###autoload
(define-derived-mode cute-mode prog-mode "CuTe"
  "Major mode for cute-lsp's layout sheets."
  :syntax-table cute-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "\\(?:#+\\|//+\\)[ \t]*")
  (setq-local comment-end "")
  (setq-local font-lock-defaults '(cute-font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.cute\\'" . cute-mode))

(defun cute--initialization-options ()
  "The settings cute-lsp reads at start."
  (list :cute cute-server-settings))

;;; eglot

(defvar eglot-server-programs)
(declare-function eglot-alternatives "eglot")

(defun cute--eglot-contact (&optional _interactive)
  "The eglot contact of cute-lsp: the command and the initialization options."
  (append cute-server-command
          (list :initializationOptions (cute--initialization-options))))

(defun cute-eglot-register ()
  "Make eglot start cute-lsp in `cute-mode' and in `cute-eglot-host-modes'."
  (dolist (mode (cons 'cute-mode cute-eglot-host-modes))
    (setq eglot-server-programs
          (cons (cons mode #'cute--eglot-contact)
                (seq-remove (lambda (entry) (equal (car entry) mode)) eglot-server-programs)))))

(with-eval-after-load 'eglot
  (cute-eglot-register))

;;; lsp-mode

(defvar lsp-language-id-configuration)
(declare-function lsp-register-client "lsp-mode")
(declare-function make-lsp-client "lsp-mode")
(declare-function lsp-stdio-connection "lsp-mode")
(declare-function lsp-activate-on "lsp-mode")

(defconst cute-lsp-mode-language-ids
  '((cute-mode . "cute") (cuda-mode . "cuda") (mlir-mode . "mlir"))
  "Language ids lsp-mode does not know by itself.")

(defun cute-lsp-mode-register ()
  "Register cute-lsp with lsp-mode as an add-on server beside clangd and pyright."
  (dolist (entry cute-lsp-mode-language-ids)
    (unless (assoc (car entry) lsp-language-id-configuration)
      (push entry lsp-language-id-configuration)))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection (lambda () cute-server-command))
    :activation-fn (lsp-activate-on "cute" "cpp" "c" "cuda" "python" "mlir")
    :add-on? t
    :priority -1
    :server-id 'cute-lsp
    :initialization-options #'cute--initialization-options)))

(with-eval-after-load 'lsp-mode
  (cute-lsp-mode-register))

(provide 'cute-mode)
;;; cute-mode.el ends here
