/**
 * The library dev set's documents (issue 24, item 5): PDFs and Markdown files of Debian
 * documentation packages, fetched with `apt-get download` into ~/.cache/pageindex-devset by
 * scripts/debian-docs.ts (never committed). The held-out packages (r-doc-pdf, gnuplot-doc,
 * libigraph-doc, texlive-*-doc, the layout hold-outs of debian-docs.ts and devset.ts) are not
 * used: `libraryFiles()` refuses them.
 *
 * The list was made once from the packages' contents: English PDFs of 40 KB to 5.5 MB (at most two
 * per package, a few more for collections such as erlang-doc or simh) and Markdown files of
 * 3 KB or more that are not change logs, licences or contribution notes (a handful per package,
 * spread over its folders).
 */
/** Package → files of the library (paths inside the package), fetched by `apt-get download`; generated once from the packages' contents. */
export const LIBRARY_FILES: Readonly<Record<string, readonly string[]>> = {
  "abinit-doc": [
    "usr/share/doc/abinit/html/index.md",
    "usr/share/doc/abinit/html/theory/ELF/test_report/test_report_elf.pdf",
    "usr/share/doc/abinit/html/theory/KDEN/test_report_kden.pdf",
  ],
  "ada-reference-manual-2012": [
    "usr/share/doc/ada-reference-manual-2012/arm2012.pdf.gz",
  ],
  "afl++-doc": [
    "usr/share/doc/afl++-doc/FAQ.md.gz",
    "usr/share/doc/afl++-doc/afl-fuzz_approach.md.gz",
    "usr/share/doc/afl++-doc/custom_mutators.md.gz",
    "usr/share/doc/afl++-doc/features.md.gz",
    "usr/share/doc/afl++-doc/fuzzing_in_depth.md.gz",
    "usr/share/doc/afl++-doc/rpc_statsd.md.gz",
  ],
  "aplus-fsf-doc": [
    "usr/share/doc/aplus-fsf-doc/html/Acro123.pdf.gz",
    "usr/share/doc/aplus-fsf-doc/html/AcroTest.pdf.gz",
  ],
  "apt-doc": [
    "usr/share/doc/apt/acquire-additional-files.md.gz",
    "usr/share/doc/apt/external-dependency-solver-protocol.md.gz",
    "usr/share/doc/apt/external-installation-planner-protocol.md.gz",
    "usr/share/doc/apt/json-hooks-protocol.md.gz",
  ],
  "asymptote-doc": [
    "usr/share/doc/asymptote/CAD.pdf",
    "usr/share/doc/asymptote/asy-latex.pdf",
  ],
  "auto-multiple-choice-doc-pdf": [
    "usr/share/doc/auto-multiple-choice/auto-multiple-choice.en.pdf",
    "usr/share/doc/auto-multiple-choice/latex/sample-amc.pdf",
  ],
  "autoconf-doc": [
    "usr/share/doc/autoconf/autoconf.pdf.gz",
  ],
  "avr-libc": [
    "usr/share/doc/avr-libc/avr-libc-user-manual.pdf.gz",
  ],
  "avrdude-doc": [
    "usr/share/doc/avrdude/avrdude.pdf.gz",
  ],
  "bacula-doc": [
    "usr/share/doc/bacula-doc/pdf/console.pdf.gz",
    "usr/share/doc/bacula-doc/pdf/misc.pdf.gz",
  ],
  "bash-doc": [
    "usr/share/doc/bash/bash.pdf",
    "usr/share/doc/bash/bashref.pdf",
  ],
  "bibtool": [
    "usr/share/doc/bibtool/Changes.pdf",
    "usr/share/doc/bibtool/bibtool.pdf",
  ],
  "bird2-doc": [
    "usr/share/doc/bird2/bird.pdf.gz",
    "usr/share/doc/bird2/prog.pdf.gz",
  ],
  "blktrace": [
    "usr/share/doc/blktrace/blktrace.pdf",
    "usr/share/doc/blktrace/btreplay.pdf",
  ],
  "buildah": [
    "usr/share/doc/buildah/buildah-add.1.md.gz",
    "usr/share/doc/buildah/buildah-config.1.md.gz",
    "usr/share/doc/buildah/buildah-from.1.md.gz",
    "usr/share/doc/buildah/buildah-manifest.1.md.gz",
    "usr/share/doc/buildah/buildah-run.1.md.gz",
    "usr/share/doc/buildah/release-announcements/v1.1.md",
    "usr/share/doc/buildah/release-announcements/v1.4.md.gz",
    "usr/share/doc/buildah/tutorials/02-registries-repositories.md.gz",
  ],
  "bup": [
    "usr/share/doc/bup/0.33.5-from-0.33.4.md.gz",
  ],
  "cafeobj": [
    "usr/share/doc/cafeobj/binspect.pdf",
    "usr/share/doc/cafeobj/namespace.pdf",
  ],
  "catch2": [
    "usr/share/doc/catch2/docs/assertions.md.gz",
    "usr/share/doc/catch2/docs/cmake-integration.md.gz",
    "usr/share/doc/catch2/docs/deprecations.md.gz",
    "usr/share/doc/catch2/docs/matchers.md.gz",
    "usr/share/doc/catch2/docs/own-main.md.gz",
    "usr/share/doc/catch2/docs/test-cases-and-sections.md.gz",
  ],
  "chasquid": [
    "usr/share/doc/chasquid/aliases.md",
    "usr/share/doc/chasquid/howto.md.gz",
    "usr/share/doc/chasquid/monitoring.md.gz",
    "usr/share/doc/chasquid/sec-levels.md.gz",
  ],
  "chezscheme-doc": [
    "usr/share/doc/chezscheme-doc/csug.pdf.gz",
    "usr/share/doc/chezscheme-doc/html/csug9_5.pdf.gz",
  ],
  "cl-asdf": [
    "usr/share/doc/cl-asdf/best_practices.md.gz",
    "usr/share/doc/cl-asdf/asdf.pdf.gz",
    "usr/share/doc/cl-asdf/uiop.pdf.gz",
  ],
  "claws-mail-doc": [
    "usr/share/doc/claws-mail/manual/en/claws-mail-manual.pdf.gz",
  ],
  "clips-doc": [
    "usr/share/doc/clips-doc/application_abstracts.pdf.gz",
    "usr/share/doc/clips-doc/architecture_manual_v5_1.pdf.gz",
  ],
  "clisp-doc": [
    "usr/share/doc/clisp/doc/clisp.pdf.gz",
  ],
  "coccinelle-doc": [
    "usr/share/doc/coccinelle/main_grammar.pdf",
    "usr/share/doc/coccinelle/manual.pdf",
  ],
  "composer": [
    "usr/share/doc/composer/00-intro.md.gz",
    "usr/share/doc/composer/03-cli.md.gz",
    "usr/share/doc/composer/07-runtime.md.gz",
    "usr/share/doc/composer/articles/autoloader-optimization.md.gz",
    "usr/share/doc/composer/articles/handling-private-packages.md.gz",
    "usr/share/doc/composer/articles/scripts.md.gz",
  ],
  "containerd": [
    "usr/share/doc/containerd/PLUGINS.md.gz",
    "usr/share/doc/containerd/content-flow.md.gz",
    "usr/share/doc/containerd/hosts.md.gz",
    "usr/share/doc/containerd/ops.md.gz",
  ],
  "coop-computing-tools-doc": [
    "usr/share/doc/coop-computing-tools/manuals/awe/index.md.gz",
    "usr/share/doc/coop-computing-tools/manuals/chirp/index.md.gz",
    "usr/share/doc/coop-computing-tools/manuals/install/index.md.gz",
    "usr/share/doc/coop-computing-tools/manuals/man_pages.md",
    "usr/share/doc/coop-computing-tools/manuals/old_projects/sand.md.gz",
    "usr/share/doc/coop-computing-tools/manuals/resource_monitor/index.md.gz",
  ],
  "cvs": [
    "usr/share/doc/cvs/cvs-paper.pdf",
    "usr/share/doc/cvs/cvs.pdf",
  ],
  "db5.3-doc": [
    "usr/share/doc/db5.3-doc/api_reference/C/BDB-C_APIReference.pdf.gz",
    "usr/share/doc/db5.3-doc/gsg/C/BerkeleyDB-Core-C-GSG.pdf.gz",
    "usr/share/doc/db5.3-doc/gsg_txn/JAVA/BerkeleyDB-Core-JAVA-Txn.pdf.gz",
  ],
  "dblatex-doc": [
    "usr/share/doc/dblatex/manual.pdf.gz",
    "usr/share/doc/dblatex/release-notes.pdf.gz",
  ],
  "ddd-doc": [
    "usr/share/doc/ddd/ddd-themes.pdf.gz",
    "usr/share/doc/ddd/ddd.pdf.gz",
  ],
  "debian-edu-doc-en": [
    "usr/share/doc/debian-edu-doc-en/debian-edu-bookworm-manual.pdf",
    "usr/share/doc/debian-edu-doc-en/debian-edu-bullseye-manual.pdf",
  ],
  "debian-faq": [
    "usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz",
  ],
  "debian-history": [
    "usr/share/doc/debian-history/docs/project-history.en.pdf",
    "usr/share/doc/debian-history/docs/project-history.lt.pdf",
  ],
  "debian-policy": [
    "usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz",
    "usr/share/doc/debian-policy/policy.pdf.gz",
  ],
  "debian-reference-en": [
    "usr/share/debian-reference/debian-reference.en.pdf",
  ],
  "debmake-doc": [
    "usr/share/doc/debmake-doc/debmake-doc.en.pdf",
  ],
  "dehydrated": [
    "usr/share/doc/dehydrated/docs/tls-alpn.md",
    "usr/share/doc/dehydrated/docs/troubleshooting.md",
  ],
  "delve": [
    "usr/share/doc/delve/api/ClientHowto.md.gz",
    "usr/share/doc/delve/cli/expr.md.gz",
    "usr/share/doc/delve/cli/getting_started.md",
    "usr/share/doc/delve/cli/starlark.md.gz",
  ],
  "direnv": [
    "usr/share/doc/direnv/ruby.md",
  ],
  "docbook-xsl-doc-pdf": [
    "usr/share/doc/docbook-xsl-doc-pdf/doc/reference.pdf.gz",
  ],
  "docker-doc": [
    "usr/share/doc/docker-doc/api/v1.18.md.gz",
    "usr/share/doc/docker-doc/api/v1.23.md.gz",
    "usr/share/doc/docker-doc/contributing/software-req-win.md.gz",
    "usr/share/doc/docker-doc/extend/index.md.gz",
    "usr/share/doc/docker-doc/extend/plugins_logging.md.gz",
    "usr/share/doc/docker-doc/reference/commandline/attach.md.gz",
    "usr/share/doc/docker-doc/reference/commandline/config_ls.md.gz",
    "usr/share/doc/docker-doc/reference/commandline/dockerd.md.gz",
    "usr/share/doc/docker-doc/reference/commandline/index.md.gz",
    "usr/share/doc/docker-doc/reference/commandline/network_connect.md",
    "usr/share/doc/docker-doc/reference/commandline/node_inspect.md.gz",
    "usr/share/doc/docker-doc/reference/commandline/plugin_set.md",
    "usr/share/doc/docker-doc/reference/commandline/run.md.gz",
    "usr/share/doc/docker-doc/reference/commandline/service_logs.md",
    "usr/share/doc/docker-doc/reference/commandline/stack_ps.md.gz",
    "usr/share/doc/docker-doc/reference/commandline/swarm_join.md.gz",
    "usr/share/doc/docker-doc/reference/commandline/trust_revoke.md",
    "usr/share/doc/docker-doc/reference/commandline/version.md.gz",
  ],
  "docker-registry": [
    "usr/share/doc/docker-registry/configuration.md.gz",
    "usr/share/doc/docker-registry/spec/auth/jwt.md.gz",
    "usr/share/doc/docker-registry/spec/auth/scope.md.gz",
    "usr/share/doc/docker-registry/spec/manifest-v2-1.md.gz",
  ],
  "dotdrop": [
    "usr/share/doc/dotdrop/docs/config/config-config.md.gz",
    "usr/share/doc/dotdrop/docs/config/config-file.md.gz",
    "usr/share/doc/dotdrop/docs/howto/sensitive-dotfiles.md",
    "usr/share/doc/dotdrop/docs/installation.md.gz",
  ],
  "doxygen-doc": [
    "usr/share/doc/doxygen/doxygen_manual.pdf",
  ],
  "dynare-doc": [
    "usr/share/doc/dynare/bvar-a-la-sims.pdf.gz",
    "usr/share/doc/dynare/dynare++/tl.pdf.gz",
  ],
  "easy-rsa": [
    "usr/share/doc/easy-rsa/doc/EasyRSA-Advanced.md.gz",
    "usr/share/doc/easy-rsa/doc/EasyRSA-Readme.md.gz",
    "usr/share/doc/easy-rsa/doc/Hacking.md.gz",
    "usr/share/doc/easy-rsa/doc/Intro-To-PKI.md.gz",
  ],
  "ecasound-doc": [
    "usr/share/doc/ecasound/ecasound_eci_doc.pdf.gz",
    "usr/share/doc/ecasound/ecasound_users_guide.pdf.gz",
  ],
  "erlang-doc": [
    "usr/share/doc/erlang-doc/doc/pdf/otp-system-documentation-13.1.5.pdf",
    "usr/share/doc/erlang-doc/lib/dialyzer-5.0.4/doc/pdf/dialyzer-5.0.4.pdf",
    "usr/share/doc/erlang-doc/lib/eunit-2.8.1/doc/pdf/eunit-2.8.1.pdf",
    "usr/share/doc/erlang-doc/lib/os_mon-2.8/doc/pdf/os_mon-2.8.pdf",
    "usr/share/doc/erlang-doc/lib/ssh-4.15.2/doc/pdf/ssh-4.15.2.pdf",
  ],
  "etcd-server": [
    "usr/share/doc/etcd-server/benchmarks/etcd-2-2-0-benchmarks.md",
    "usr/share/doc/etcd-server/dev-guide/api_grpc_gateway.md.gz",
    "usr/share/doc/etcd-server/docs.md.gz",
    "usr/share/doc/etcd-server/learning/design-client.md.gz",
    "usr/share/doc/etcd-server/op-guide/configuration.md.gz",
    "usr/share/doc/etcd-server/op-guide/maintenance.md.gz",
    "usr/share/doc/etcd-server/platforms/aws.md.gz",
    "usr/share/doc/etcd-server/upgrades/upgrade_3_1.md.gz",
    "usr/share/doc/etcd-server/v2/api.md.gz",
    "usr/share/doc/etcd-server/v2/benchmarks/etcd-3-watch-memory-benchmark.md",
    "usr/share/doc/etcd-server/v2/docker_guide.md",
    "usr/share/doc/etcd-server/v2/rfc/v3api.md.gz",
  ],
  "fasttext": [
    "usr/share/doc/fasttext/aligned-vectors.md.gz",
    "usr/share/doc/fasttext/crawl-vectors.md.gz",
    "usr/share/doc/fasttext/python-module.md.gz",
    "usr/share/doc/fasttext/supervised-tutorial.md.gz",
  ],
  "finit": [
    "usr/share/doc/finit/conditions.md.gz",
    "usr/share/doc/finit/config.md.gz",
    "usr/share/doc/finit/plugins.md",
  ],
  "freefem-doc": [
    "usr/share/doc/freefem-doc/freefem.pdf",
  ],
  "gap-doc": [
    "usr/share/gap/doc/hpc/manual.pdf",
    "usr/share/gap/doc/ref/manual.pdf",
  ],
  "gcl-doc": [
    "usr/share/doc/gcl-doc/dwdoc.pdf.gz",
    "usr/share/doc/gcl-doc/gcl-tk.pdf.gz",
  ],
  "genometools-doc": [
    "usr/share/doc/genometools/annotationsketch.pdf.gz",
    "usr/share/doc/genometools/mgth.pdf.gz",
  ],
  "geotranz-doc": [
    "usr/share/doc/geotranz-doc/MSP_Geotrans_Programmers_Guide.pdf.gz",
    "usr/share/doc/geotranz-doc/MSP_Geotrans_Release_Notes.pdf.gz",
  ],
  "git-lfs": [
    "usr/share/doc/git-lfs/basic-transfers.md",
    "usr/share/doc/git-lfs/custom-transfers.md.gz",
    "usr/share/doc/git-lfs/l10n.md.gz",
    "usr/share/doc/git-lfs/server-discovery.md",
  ],
  "gmsh-doc": [
    "usr/share/doc/gmsh-doc/doc/gmsh/gmsh.pdf.gz",
    "usr/share/doc/gmsh-doc/gmsh.pdf.gz",
  ],
  "gnu-standards": [
    "usr/share/doc/gnu-standards/maintain.pdf.gz",
    "usr/share/doc/gnu-standards/standards.pdf.gz",
  ],
  "gobgpd": [
    "usr/share/doc/gobgpd/add-paths.md.gz",
    "usr/share/doc/gobgpd/configuration.md.gz",
    "usr/share/doc/gobgpd/flowspec.md.gz",
    "usr/share/doc/gobgpd/lib-ls.md",
    "usr/share/doc/gobgpd/policy.md.gz",
    "usr/share/doc/gobgpd/ttl-security.md.gz",
  ],
  "gopls": [
    "usr/share/doc/gopls/analyzers.md.gz",
    "usr/share/doc/gopls/daemon.md.gz",
    "usr/share/doc/gopls/semantictokens.md.gz",
    "usr/share/doc/gopls/troubleshooting.md.gz",
  ],
  "gprolog-doc": [
    "usr/share/doc/gprolog-doc/gprolog.pdf",
    "usr/share/doc/gprolog-doc/logo.pdf",
  ],
  "grace": [
    "usr/share/doc/grace/FAQ.pdf.gz",
    "usr/share/doc/grace/Tutorial.pdf.gz",
  ],
  "graphviz-doc": [
    "usr/share/doc/graphviz/pdf/Agraph.pdf.gz",
    "usr/share/doc/graphviz/pdf/dotguide.pdf.gz",
    "usr/share/doc/graphviz/pdf/libguide.pdf.gz",
  ],
  "groff": [
    "usr/share/doc/groff-base/pdf/automake.pdf.gz",
    "usr/share/doc/groff-base/pdf/pdfmark.pdf.gz",
  ],
  "haskell98-report": [
    "usr/share/doc/haskell98-report/ffi.pdf.gz",
    "usr/share/doc/haskell98-report/haskell98-report.pdf.gz",
  ],
  "icinga2-doc": [
    "usr/share/doc/icinga2/markdown/01-about.md.gz",
    "usr/share/doc/icinga2/markdown/03-monitoring-basics.md.gz",
    "usr/share/doc/icinga2/markdown/05-service-monitoring.md.gz",
    "usr/share/doc/icinga2/markdown/08-advanced-topics.md.gz",
    "usr/share/doc/icinga2/markdown/10-icinga-template-library.md.gz",
    "usr/share/doc/icinga2/markdown/13-addons.md.gz",
    "usr/share/doc/icinga2/markdown/15-troubleshooting.md.gz",
    "usr/share/doc/icinga2/markdown/17-language-reference.md.gz",
    "usr/share/doc/icinga2/markdown/20-script-debugger.md.gz",
    "usr/share/doc/icinga2/markdown/22-selinux.md.gz",
  ],
  "ifeffit-doc": [
    "usr/share/doc/ifeffit/pdf/autobk.pdf",
    "usr/share/doc/ifeffit/pdf/feffit.pdf",
  ],
  "installation-guide-amd64": [
    "usr/share/doc/installation-guide-amd64/en/install.en.pdf.gz",
  ],
  "jags": [
    "usr/share/doc/jags/jags_developer_manual.pdf.gz",
    "usr/share/doc/jags/jags_installation_manual.pdf.gz",
  ],
  "javacc-doc": [
    "usr/share/doc/javacc/documentation/api.md.gz",
    "usr/share/doc/javacc/documentation/jjtree.md.gz",
    "usr/share/doc/javacc/index.md.gz",
    "usr/share/doc/javacc/tutorials/examples.md.gz",
  ],
  "kannel-docs": [
    "usr/share/doc/kannel-docs/alligata/alligata.pdf.gz",
    "usr/share/doc/kannel-docs/userguide/userguide.pdf.gz",
  ],
  "king": [
    "usr/share/doc/king/chiropraxis-manual.pdf",
    "usr/share/doc/king/new-color-palette.pdf",
  ],
  "krb5-doc": [
    "usr/share/doc/krb5-doc/admin.pdf.gz",
    "usr/share/doc/krb5-doc/build.pdf.gz",
  ],
  "leiningen": [
    "usr/share/doc/leiningen/DEPLOY.md.gz",
    "usr/share/doc/leiningen/GPG.md.gz",
    "usr/share/doc/leiningen/MIXED_PROJECTS.md.gz",
    "usr/share/doc/leiningen/PROFILES.md.gz",
  ],
  "libcurl4-doc": [
    "usr/share/doc/libcurl4/BINDINGS.md.gz",
    "usr/share/doc/libcurl4/CHECKSRC.md.gz",
    "usr/share/doc/libcurl4/CODE_STYLE.md.gz",
    "usr/share/doc/libcurl4/DEPRECATE.md",
    "usr/share/doc/libcurl4/HELP-US.md",
    "usr/share/doc/libcurl4/HTTP3.md.gz",
    "usr/share/doc/libcurl4/RELEASE-PROCEDURE.md",
    "usr/share/doc/libcurl4/TheArtOfHttpScripting.md.gz",
  ],
  "libexplain-doc": [
    "usr/share/doc/libexplain/building.pdf",
    "usr/share/doc/libexplain/readme.pdf",
  ],
  "libgit2-dev": [
    "usr/share/doc/libgit2-dev/buffers.md",
    "usr/share/doc/libgit2-dev/coding-style.md.gz",
    "usr/share/doc/libgit2-dev/error-handling.md.gz",
    "usr/share/doc/libgit2-dev/projects.md.gz",
  ],
  "libsuitesparse-doc": [
    "usr/share/doc/libsuitesparse-dev/SuiteSparse_README.md.gz",
    "usr/share/doc/libsuitesparse-dev/AMD_UserGuide.pdf",
    "usr/share/doc/libsuitesparse-dev/SLIP_LU_UserGuide.pdf",
  ],
  "lifelines-doc": [
    "usr/share/doc/lifelines-doc/ll-reportmanual.pdf.gz",
    "usr/share/doc/lifelines-doc/ll-userguide.pdf.gz",
  ],
  "liggghts-doc": [
    "usr/share/doc/liggghts/doc/PDF/PDLammps_VES.pdf.gz",
    "usr/share/doc/liggghts/doc/PDF/pair_gayberne_extra.pdf.gz",
  ],
  "linuxcnc-doc-en": [
    "usr/share/doc/linuxcnc/LinuxCNC_Developer.pdf",
    "usr/share/doc/linuxcnc/LinuxCNC_Integrator.pdf",
  ],
  "live-manual-pdf": [
    "usr/share/doc/live-manual/pdf/live-manual.landscape.en.letter.pdf.gz",
    "usr/share/doc/live-manual/pdf/live-manual.portrait.en.a4.pdf.gz",
  ],
  "lxd": [
    "usr/share/doc/lxd/api-extensions.md.gz",
    "usr/share/doc/lxd/container-environment.md",
    "usr/share/doc/lxd/explanation/clustering.md.gz",
    "usr/share/doc/lxd/howto/benchmark_performance.md.gz",
    "usr/share/doc/lxd/howto/import_machines_to_instances.md.gz",
    "usr/share/doc/lxd/howto/instances_create.md",
    "usr/share/doc/lxd/howto/network_bridge_firewalld.md.gz",
    "usr/share/doc/lxd/howto/network_ovn_setup.md.gz",
    "usr/share/doc/lxd/howto/storage_pools.md.gz",
    "usr/share/doc/lxd/metrics.md.gz",
    "usr/share/doc/lxd/reference/devices_gpu.md.gz",
    "usr/share/doc/lxd/reference/network_ovn.md.gz",
    "usr/share/doc/lxd/reference/storage_ceph.md.gz",
    "usr/share/doc/lxd/reference/storage_zfs.md.gz",
  ],
  "magic-wormhole": [
    "usr/share/doc/magic-wormhole/api.md.gz",
    "usr/share/doc/magic-wormhole/client-protocol.md",
    "usr/share/doc/magic-wormhole/journal.md.gz",
    "usr/share/doc/magic-wormhole/tor.md",
  ],
  "maxima-doc": [
    "usr/share/doc/maxima-doc/maximabook-19-Sept-2004.pdf.gz",
  ],
  "mediawiki": [
    "usr/share/doc/mediawiki/docs/Hooks.md.gz",
    "usr/share/doc/mediawiki/docs/Injection.md.gz",
    "usr/share/doc/mediawiki/docs/Logger.md",
    "usr/share/doc/mediawiki/docs/Title.md",
    "usr/share/doc/mediawiki/docs/contenthandler.md.gz",
    "usr/share/doc/mediawiki/docs/memcached.md.gz",
    "usr/share/doc/mediawiki/docs/pageupdater.md.gz",
    "usr/share/doc/mediawiki/docs/sitelist.md",
    "usr/share/mediawiki/vendor/guzzlehttp/guzzle/UPGRADING.md",
    "usr/share/mediawiki/vendor/wikimedia/idle-dom/WebIDL.md",
  ],
  "minlog": [
    "usr/share/doc/minlog/mlcf.pdf",
    "usr/share/doc/minlog/ref.pdf",
  ],
  "mit-scheme-doc": [
    "usr/share/doc/mit-scheme-doc/pdf/mit-scheme-ffi.pdf.gz",
    "usr/share/doc/mit-scheme-doc/pdf/mit-scheme-sos.pdf.gz",
  ],
  "mma": [
    "usr/share/doc/mma/pdf/chords.pdf",
    "usr/share/doc/mma/pdf/mma-plugins.pdf",
  ],
  "mtail": [
    "usr/share/doc/mtail/Deploying.md.gz",
    "usr/share/doc/mtail/Language.md.gz",
    "usr/share/doc/mtail/Troubleshooting.md.gz",
    "usr/share/doc/mtail/faq.md.gz",
  ],
  "mummer-doc": [
    "usr/share/doc/mummer/maxmat3man.pdf",
    "usr/share/doc/mummer/maxmat3src.pdf",
  ],
  "muttprint-manual": [
    "usr/share/doc/muttprint/manual/manual-en.pdf.gz",
    "usr/share/doc/muttprint/manual/manual-sl.pdf.gz",
  ],
  "ne-doc": [
    "usr/share/doc/ne/ne.pdf.gz",
  ],
  "ngspice-doc": [
    "usr/share/doc/ngspice-doc/manual.pdf.gz",
  ],
  "nodejs-doc": [
    "usr/share/doc/nodejs/api/addons.md.gz",
    "usr/share/doc/nodejs/api/async_hooks.md.gz",
    "usr/share/doc/nodejs/api/cluster.md.gz",
    "usr/share/doc/nodejs/api/debugger.md.gz",
    "usr/share/doc/nodejs/api/dns.md.gz",
    "usr/share/doc/nodejs/api/embedding.md.gz",
    "usr/share/doc/nodejs/api/fs.md.gz",
    "usr/share/doc/nodejs/api/https.md.gz",
    "usr/share/doc/nodejs/api/modules.md.gz",
    "usr/share/doc/nodejs/api/os.md.gz",
    "usr/share/doc/nodejs/api/permissions.md.gz",
    "usr/share/doc/nodejs/api/readline.md.gz",
    "usr/share/doc/nodejs/api/stream.md.gz",
    "usr/share/doc/nodejs/api/tls.md.gz",
    "usr/share/doc/nodejs/api/util.md.gz",
    "usr/share/doc/nodejs/api/webcrypto.md.gz",
  ],
  "npm": [
    "usr/share/doc/npm/commands/npm-audit.md.gz",
    "usr/share/doc/npm/commands/npm-dist-tag.md",
    "usr/share/doc/npm/commands/npm-init.md.gz",
    "usr/share/doc/npm/commands/npm-ls.md",
    "usr/share/doc/npm/commands/npm-pkg.md.gz",
    "usr/share/doc/npm/commands/npm-team.md",
    "usr/share/doc/npm/commands/npm-version.md",
    "usr/share/doc/npm/commands/npm.md.gz",
    "usr/share/doc/npm/configuring-npm/npmrc.md",
    "usr/share/doc/npm/using-npm/config.md",
    "usr/share/doc/npm/using-npm/developers.md.gz",
    "usr/share/doc/npm/using-npm/scope.md.gz",
  ],
  "nut-doc": [
    "usr/share/doc/nut-doc/pdf/FAQ.pdf",
    "usr/share/doc/nut-doc/pdf/packager-guide.pdf",
  ],
  "nyquist": [
    "usr/share/doc/nyquist/demos/allewis/cmusic_pres.pdf.gz",
    "usr/share/doc/nyquist/doc/sdl-man.pdf.gz",
  ],
  "oaklisp-doc": [
    "usr/share/doc/oaklisp/OaklispSummary.pdf.gz",
    "usr/share/doc/oaklisp/lang.pdf.gz",
  ],
  "octave-doc": [
    "usr/share/doc/octave/liboctave.pdf",
    "usr/share/doc/octave/refcard-a4.pdf",
  ],
  "onedrive": [
    "usr/share/doc/onedrive/BusinessSharedFolders.md.gz",
    "usr/share/doc/onedrive/Docker.md.gz",
    "usr/share/doc/onedrive/USAGE.md.gz",
    "usr/share/doc/onedrive/advanced-usage.md.gz",
  ],
  "oomd": [
    "usr/share/doc/oomd/docs/configuration.md.gz",
    "usr/share/doc/oomd/docs/drop_in_configs.md.gz",
    "usr/share/doc/oomd/docs/prekill_hooks.md.gz",
    "usr/share/doc/oomd/docs/writing_a_kill_plugin.md.gz",
  ],
  "openafs-doc": [
    "usr/share/doc/openafs-doc/auagd000.pdf.gz",
    "usr/share/doc/openafs-doc/auqbg000.pdf.gz",
  ],
  "openrc": [
    "usr/share/doc/openrc/service-script-guide.md.gz",
    "usr/share/doc/openrc/supervise-daemon-guide.md",
    "usr/share/doc/openrc/user-guide.md.gz",
  ],
  "packaging-tutorial": [
    "usr/share/doc/packaging-tutorial/packaging-tutorial.gl.pdf",
    "usr/share/doc/packaging-tutorial/packaging-tutorial.pdf",
  ],
  "parallel": [
    "usr/share/doc/parallel/env_parallel.pdf.gz",
    "usr/share/doc/parallel/parallel_cheat_bw.pdf.gz",
  ],
  "pari-doc": [
    "usr/share/pari/doc/INSTALL.pdf",
    "usr/share/pari/doc/refcard-ell.pdf",
    "usr/share/pari/doc/refcard.pdf",
  ],
  "pipx": [
    "usr/share/doc/pipx/docs/comparisons.md.gz",
    "usr/share/doc/pipx/docs/docs.md.gz",
    "usr/share/doc/pipx/docs/troubleshooting.md",
  ],
  "podman": [
    "usr/share/doc/podman/commands-demo.md.gz",
    "usr/share/doc/podman/podman_tutorial.md.gz",
    "usr/share/doc/podman/remote_client.md.gz",
    "usr/share/doc/podman/rootless.md.gz",
    "usr/share/doc/podman/transfer.md.gz",
  ],
  "python3-pip": [
    "usr/share/doc/python3-pip/html/development/issue-triage.md.gz",
    "usr/share/doc/python3-pip/html/reference/build-system/index.md.gz",
    "usr/share/doc/python3-pip/html/reference/inspect-report.md.gz",
    "usr/share/doc/python3-pip/html/topics/authentication.md",
    "usr/share/doc/python3-pip/html/topics/dependency-resolution.md.gz",
    "usr/share/doc/python3-pip/html/topics/repeatable-installs.md",
  ],
  "qdirstat": [
    "usr/share/doc/qdirstat/Btrfs-Free-Size.md.gz",
    "usr/share/doc/qdirstat/GitHub-Workflow.md.gz",
    "usr/share/doc/qdirstat/Shadowed-by-Mount.md.gz",
    "usr/share/doc/qdirstat/stats/File-Size-Histogram.md.gz",
  ],
  "rasmol-doc": [
    "usr/share/doc/rasmol-doc/manualA4.pdf",
    "usr/share/doc/rasmol-doc/refcardA4.pdf",
  ],
  "rdma-core": [
    "usr/share/doc/rdma-core/tag_matching.md.gz",
    "usr/share/doc/rdma-core/udev.md.gz",
  ],
  "redis-redisearch-doc": [
    "usr/share/doc/redis-redisearch/docs/Aggregations.md",
    "usr/share/doc/redis-redisearch/docs/Commands.md",
    "usr/share/doc/redis-redisearch/docs/Extensions.md",
    "usr/share/doc/redis-redisearch/docs/Query_Syntax.md",
    "usr/share/doc/redis-redisearch/docs/Tags.md",
    "usr/share/doc/redis-redisearch/docs/design/indexing.md",
  ],
  "rpm": [
    "usr/share/doc/rpm/arch_dependencies.md.gz",
    "usr/share/doc/rpm/boolean_dependencies.md",
    "usr/share/doc/rpm/file_triggers.md",
    "usr/share/doc/rpm/macros.md.gz",
    "usr/share/doc/rpm/plugins.md.gz",
    "usr/share/doc/rpm/spec.md.gz",
  ],
  "sbcl-doc": [
    "usr/share/doc/sbcl/sbcl-internals.pdf.gz",
    "usr/share/doc/sbcl/sbcl.pdf.gz",
  ],
  "scheme48-doc": [
    "usr/share/doc/scheme48/manual.pdf.gz",
  ],
  "sdcc-doc": [
    "usr/share/doc/sdcc-doc/sdccman.pdf.gz",
  ],
  "shairport-sync": [
    "usr/share/doc/shairport-sync/MQTT.md.gz",
    "usr/share/doc/shairport-sync/TROUBLESHOOTING.md.gz",
  ],
  "simh": [
    "usr/share/doc/simh/advmonsys.pdf",
    "usr/share/doc/simh/gri_doc.pdf",
    "usr/share/doc/simh/nova_doc.pdf",
    "usr/share/doc/simh/simh.pdf",
  ],
  "slurm-wlm-doc": [
    "usr/share/doc/slurm-wlm/html/Slurm_Entity.pdf",
    "usr/share/doc/slurm-wlm/html/Slurm_Individual.pdf",
  ],
  "smlnj-doc": [
    "usr/share/doc/smlnj/cm_manual.pdf.gz",
    "usr/share/doc/smlnj/ml-burg_manual.pdf.gz",
    "usr/share/doc/smlnj/mltexdoc.pdf.gz",
  ],
  "stow": [
    "usr/share/doc/stow/manual.pdf.gz",
  ],
  "survex": [
    "usr/share/doc/survex/manual.pdf.gz",
  ],
  "swig4.0-doc": [
    "usr/share/doc/swig4.0-doc/Manual/SWIGDocumentation.pdf",
  ],
  "systemd": [
    "usr/share/doc/systemd/CODING_STYLE.md.gz",
    "usr/share/doc/systemd/DISTRO_PORTING.md",
    "usr/share/doc/systemd/HACKING.md.gz",
    "usr/share/doc/systemd/TRANSIENT-SETTINGS.md.gz",
  ],
  "systemtap-doc": [
    "usr/share/doc/systemtap-doc/SystemTap_Beginners_Guide.pdf",
    "usr/share/doc/systemtap-doc/tapsets.pdf",
  ],
  "tcl-doc": [
    "usr/share/doc/tcl-doc/tcltk-policy.pdf",
  ],
  "texinfo": [
    "usr/share/doc/texinfo/txirefcard-a4.pdf.gz",
    "usr/share/doc/texinfo/txirefcard.pdf.gz",
  ],
  "therion-doc": [
    "usr/share/doc/therion/samples.doc/000001-rabbit-plan.pdf",
    "usr/share/doc/therion/samples.doc/000011-cave1.pdf",
  ],
  "tokyocabinet-doc": [
    "usr/share/doc/tokyocabinet-doc/tokyoproducts.pdf.gz",
  ],
  "toulbar2-doc": [
    "usr/share/doc/toulbar2-doc/CFNformat.pdf.gz",
    "usr/share/doc/toulbar2-doc/toulbar2testdoc.pdf.gz",
  ],
  "valgrind": [
    "usr/share/doc/valgrind/valgrind_manual.pdf.gz",
  ],
  "verilator": [
    "usr/share/doc/verilator/verilator.pdf",
  ],
  "weka-doc": [
    "usr/share/doc/weka-doc/WekaManual.pdf.gz",
  ],
  "why3-doc-pdf": [
    "usr/share/doc/why3-doc-pdf/manual.pdf",
  ],
  "winff-doc": [
    "usr/share/doc/winff/WinFF.en.pdf.gz",
  ],
  "xfig-doc": [
    "usr/share/doc/xfig/xfig-howto.pdf",
    "usr/share/doc/xfig/xfig_ref_en.pdf",
  ],
  "xorg-docs": [
    "usr/share/doc/xorg-docs/License.pdf.gz",
    "usr/share/doc/xorg-docs/Xserver/XACE-Spec.pdf.gz",
    "usr/share/doc/xorg-docs/icccm/icccm.pdf.gz",
  ],
  "yacas-doc": [
    "usr/share/doc/yacas-doc/Algo.book.pdf",
    "usr/share/doc/yacas-doc/intro.book.pdf",
  ],
  "yorick-doc": [
    "usr/share/doc/yorick-doc/manual/yorick.pdf.gz",
    "usr/share/doc/yorick-doc/refs.pdf.gz",
  ],
  "zsh-doc": [
    "usr/share/doc/zsh-common/zsh.pdf",
  ],
};
