"""The lower-case names of well-known software packages that an English word spells but
no module of Python's standard library uses: the 1000 most downloaded packages of PyPI (a
snapshot of its ranking) that are words of Debian's English word lists (wamerican-large,
wbritish-large) and no word of the standard library's sources (its tests left out), which
is the vocabulary of code ("build", "retry", "schema", "requests", "six" are left out;
"pandas", "tenacity", "celery" stay). Written by ``tools/software_names.py``
(docs/summary-eval.md, session 19); not from the labelled sets. Below them, :data:`TOOLS` and
:data:`SERVICES`, written by hand (sessions 40 and 41), which a new run of the tool keeps."""

SOFTWARE_WORDS = frozenset((
    "cryptography pandas pillow greenlet tenacity wrapt hatchling ruff docker keyring tabulate flask "
    "dill alembic blinker mako cycler transformers marshmallow anthropic babel datasets tornado "
    "markdown playwright watchdog torch narwhals poetry pendulum lark shapely bleach faker triton ray "
    "humanize selenium celery astroid inflection vine synchronicity billiard cohere ply tox thrift "
    "peewee envier hypothesis patsy ninja stripe twine stevedore agate hyperlink holidays griffe "
    "weasel alabaster inflect leather bandit daff watchtower spacy catalogue confection pathos "
).split())
"""71 names, most downloaded first."""

TOOLS = frozenset((
    "nginx haproxy traefik httpd openresty apache2 uwsgi pgbouncer npm pnpm npx pipx conda micromamba "
    "homebrew apt-get dpkg dnf pacman zypper rustup nuget bundler cocoapods carthage pyenv nvm "
    "rbenv asdf volta corepack conda-forge svn gitlab gitea gerrit git-lfs git-filter-repo bfg "
    "gitleaks trufflehog lint-staged zsh tmux neovim nvim emacs vscode ripgrep wget "
    "httpie scp sftp rsync rclone restic borgbackup gzip zstd openssl gpg gnupg certbot acme-sh "
    "ffmpeg imagemagick pandoc ghostscript exiftool youtube-dl yt-dlp htop btop iotop strace ltrace "
    "lsof netstat tcpdump wireshark nmap iptables nftables ufw fail2ban wireguard openvpn aircrack-ng "
    "cronie systemd systemctl journalctl launchd chronyd ntpd sshd rsyslog logrotate sudo chmod chown "
    "valgrind gdb lldb postgres postgresql psql pg_dump pg_restore pg_dumpall pg_basebackup "
    "pg_upgrade pg_repack pg_partman pg_trgm pg_stat_statements pgloader timescaledb mysql mysqldump "
    "mariadb sqlite sqlite3 redis-cli memcached mongodb mongosh mongodump clickhouse cockroachdb "
    "cassandra opensearch kafka rabbitmq etcd gh-ost pt-online-schema-change liquibase dbt podman "
    "buildah containerd runc kubectl kubelet kubeadm minikube k3s k3d k9s kustomize argocd fluxcd "
    "istio linkerd coredns cert-manager external-dns ingress-nginx metallb karpenter keda velero "
    "terragrunt opentofu pulumi ansible localstack gcloud gsutil eksctl prometheus grafana "
    "alertmanager loki promtail zipkin fluentd fluent-bit logstash kibana filebeat telegraf influxdb "
    "node-exporter blackbox-exporter statsd collectd nagios zabbix bazel gradle autoconf automake gcc "
    "llvm rustc rustfmt clippy cargo-deny gofmt golangci-lint goimports gopls govulncheck pprof "
    "goleak staticcheck protoc buf grpcurl javac kotlinc swiftc xcodebuild notarytool altool codesign "
    "fastlane nodejs deno tsc ts-node esbuild swc webpack vite rollup turborepo lerna eslint "
    "stylelint tslint vitest electron-builder wasm-pack emscripten cibuildwheel maturin hatch-vcs pdm "
    "nox shellcheck shfmt hadolint react-dom react-router react-query lodash jquery date-fns dayjs "
    "luxon axios fastify nestjs nextjs nuxt tailwindcss chartjs socket-io zod formik immer rxjs "
    "tokio serde actix axum reqwest thiserror hashbrown sqlx gorm logrus zoneinfo tracemalloc "
    "distutils subprocess pathlib itertools functools dataclasses unittest tkinter "
).split())
"""Well-known tools and products of software written in lower case that no English word spells
and neither package list has: web servers and proxies, package managers, version control, shell
and system tools, databases and their tools, containers and infrastructure, monitoring, build
tools and toolchains, well-known libraries of Node, Rust and Go, and Python's standard modules
named in code talk ("nginx", "pnpm", "rsync", "pg_dump", "cert-manager", "tokio", "zoneinfo").
Written by hand from general knowledge, by kind of tool, not from the labelled sets; English
words ("git", "helm", "curl", "terraform"), names of two letters ("jq", "uv"), and names said as
common nouns ("a cron job", "a crontab", "naive datetimes") left out (session 40)."""

SERVICES = frozenset((
    "whatsapp instagram tiktok snapchat pinterest linkedin youtube reddit mumsnet facebook skype "
    "facetime netflix iplayer hulu spotify deezer bandcamp soundcloud mixcloud goodreads letterboxd "
    "ebay asos etsy vinted depop ocado argos screwfix wickes tesco webuyanycar autotrader cazoo "
    "paypal venmo monzo revolut klarna clearpay airbnb expedia tripadvisor ryanair easyjet uber lyft "
    "deliveroo ubereats skyscanner trainline citymapper zoopla rightmove onthemarket gmail hotmail "
    "dropbox onedrive icloud bitbucket figma canva trello asana mailchimp substack listmonk "
    "jamovi rstudio italki preply busuu memrise duolingo wanikani anki parkrun strava komoot zwift "
    "lichess garmin giffgaff lebara voxi accurx "
).split())
"""Well-known sites, apps and services of everyday life that no English word spells, as people
type them in lower case, or as they style themselves so ("giffgaff", "parkrun", "italki"):
social networks and messaging, video, music and books, shops and selling, money, travel and
homes, mail and files, work tools, learning and sport, mobile networks, a doctor's messaging.
Written by hand from general knowledge, by kind of service, not from the labelled sets; English
words ("google", "amazon", "slack", "zoom", "notion", "twitter") left out, and "github", whose
lower-case use is mostly its product "GitHub Actions" ("our github actions workflow") (session 41)."""
