<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BatchPanel</name>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="91"/>
        <source>Add folder...</source>
        <translation>添加文件夹...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="92"/>
        <source>Add files...</source>
        <translation>添加文件...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="93"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="94"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="95"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="96"/>
        <source>Continue</source>
        <translation>继续处理</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="97"/>
        <source>Run the files this batch still has queued</source>
        <translation>处理此批次中仍在排队的文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="100"/>
        <source>Batch folder...</source>
        <translation>批次文件夹...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="102"/>
        <location filename="../../scanner_app/gui/batch_panel.py" line="259"/>
        <source>Where new batches keep their results: {0}</source>
        <translation>新批次保存结果的位置：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="104"/>
        <source>Requests in flight:</source>
        <translation>并发请求数：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="129"/>
        <source>No batch yet: add a folder or files.</source>
        <translation>尚无批次：请添加文件夹或文件。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="165"/>
        <source>A batch is running: cancel it before starting another.</source>
        <translation>有批次正在运行：请先取消再开始新的批次。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="169"/>
        <source>Waiting for the server to be ready; the batch starts then.</source>
        <translation>正在等待服务器就绪；就绪后批处理开始。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="177"/>
        <source>Reading the files under {0}...</source>
        <translation>正在读取 {0} 下的文件...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="201"/>
        <source>Paused: the pages in flight finish, no new page is sent.</source>
        <translation>已暂停：正在处理的页面会完成，不再发送新页面。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="213"/>
        <source>Cancelled before it started.</source>
        <translation>已在开始前取消。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="216"/>
        <source>Cancelling: waiting for the pages in flight...</source>
        <translation>正在取消：等待正在处理的页面...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="224"/>
        <source>Nothing to export yet.</source>
        <translation>暂无可导出的内容。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="227"/>
        <source>Exporting to {0}...</source>
        <translation>正在导出到 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="251"/>
        <source>Choose a folder to read</source>
        <translation>选择要识别的文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="256"/>
        <source>Keep new batches in</source>
        <translation>将新批次保存在</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="263"/>
        <source>Choose files to read</source>
        <translation>选择要识别的文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="278"/>
        <source>Adding files: {0} of {1}...</source>
        <translation>正在添加文件：{0}/{1}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="316"/>
        <source>{0} of {1}, {2} failed; {3}, {4}; {5}</source>
        <translation>{0}/{1}，{2} 个失败；{3}，{4}；{5}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch_panel.py" line="317"/>
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch_panel.py" line="317"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n 页</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch_panel.py" line="318"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch_panel.py" line="359"/>
        <source>Wrote %n file(s): {0}</source>
        <translation>
            <numerusform>已写入 %n 个文件：{0}</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="320"/>
        <source>; {0} skipped</source>
        <translation>；跳过 {0} 个</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="323"/>
        <source>Finished: </source>
        <translation>已完成：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="325"/>
        <source>. Stopped early: {0}</source>
        <translation>。提前停止：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="327"/>
        <source>. Server unavailable, retrying in {0:.0f} s (waiting {1:.0f} s): {2}</source>
        <translation>。服务器不可用，{0:.0f} 秒后重试（已等待 {1:.0f} 秒）：{2}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="330"/>
        <source>. Paused.</source>
        <translation>。已暂停。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_panel.py" line="353"/>
        <source>Export failed: {0}</source>
        <translation>导出失败：{0}</translation>
    </message>
</context>
<context>
    <name>BatchTableModel</name>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="28"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="28"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="28"/>
        <source>Pages</source>
        <translation>页数</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="28"/>
        <source>Lines</source>
        <translation>行数</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="28"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="29"/>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="29"/>
        <source>running</source>
        <translation>处理中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="30"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="30"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_table_model.py" line="69"/>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
</context>
<context>
    <name>CameraDialog</name>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="59"/>
        <source>Capture from camera</source>
        <translation>从摄像头拍摄</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="77"/>
        <source>Video file...</source>
        <translation>视频文件...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="82"/>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="85"/>
        <source>Choose a camera or a video file</source>
        <translation>选择摄像头或视频文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="86"/>
        <source>Press the shutter (Space) to take a picture</source>
        <translation>按快门（空格键）拍照</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="88"/>
        <source>Rotate left</source>
        <translation>向左旋转</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="89"/>
        <source>Rotate right</source>
        <translation>向右旋转</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="102"/>
        <source>Auto-flatten the document</source>
        <translation>自动校正文档</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="105"/>
        <source>Take picture (Space)</source>
        <translation>拍照（空格）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="112"/>
        <source>Use picture</source>
        <translation>使用照片</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="135"/>
        <source>Video: {name}</source>
        <translation>视频：{name}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="137"/>
        <source>Camera {index}</source>
        <translation>摄像头 {index}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="156"/>
        <source>Videos ({patterns});;All files (*)</source>
        <translation>视频 ({patterns});;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="157"/>
        <source>Open a video file</source>
        <translation>打开视频文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="180"/>
        <source>No camera found. Choose a video file instead.</source>
        <translation>未找到摄像头。请改为选择视频文件。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="193"/>
        <source>Opening {source}...</source>
        <translation>正在打开 {source}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="220"/>
        <source>{source}: {details}</source>
        <translation>{source}：{details}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="238"/>
        <source>No picture yet: choose a camera or a video file.</source>
        <translation>尚无照片：请选择摄像头或视频文件。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="248"/>
        <source>The picture could not be processed: {error}</source>
        <translation>无法处理照片：{error}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="255"/>
        <source>Document found and flattened ({width} x {height}).</source>
        <translation>已找到文档并校正（{width} × {height}）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="257"/>
        <source>No document edges found: the whole frame was kept ({width} x {height}).</source>
        <translation>未找到文档边缘：保留整个画面（{width} × {height}）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="259"/>
        <source>Picture taken ({width} x {height}).</source>
        <translation>已拍照（{width} × {height}）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_dialog.py" line="300"/>
        <source>The picture could not be saved: {error}</source>
        <translation>无法保存照片：{error}</translation>
    </message>
</context>
<context>
    <name>ChartFeed</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/feed.py" line="31"/>
        <source>images/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/feed.py" line="56"/>
        <source>{0} queue</source>
        <translation>{0} 排队</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/feed.py" line="66"/>
        <source>{0} {1} %</source>
        <translation>{0} {1} %</translation>
    </message>
</context>
<context>
    <name>DashboardCharts</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="132"/>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="132"/>
        <source>images/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="133"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="133"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="134"/>
        <source>Average executed batch per model</source>
        <translation>各模型的平均执行批大小</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="134"/>
        <source>requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="136"/>
        <source>Compute (solid) vs queue (dashed) per model</source>
        <translation>各模型的计算（实线）与排队（虚线）时间</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="136"/>
        <source>ms per request</source>
        <translation>每请求毫秒数</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="138"/>
        <source>CPU / GPU use (% of all cores)</source>
        <translation>CPU / GPU 使用率（占全部核心的百分比）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="138"/>
        <source>%</source>
        <translation>%</translation>
    </message>
</context>
<context>
    <name>DemoPanel</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="35"/>
        <source>Demo: baseline vs Triton</source>
        <translation>演示：基线与 Triton 对比</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="37"/>
        <source>Starts the serial baseline server, measures it, then Triton on the same images at the same concurrency, and shows the speed-up.</source>
        <translation>启动串行基线服务器并测量，然后以相同图片和相同并发测量 Triton，显示加速比。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="42"/>
        <source>c=</source>
        <translation>并发=</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="46"/>
        <source> s each</source>
        <translation> 秒/级</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="53"/>
        <source>Press the button to compare the baseline with Triton.</source>
        <translation>按下按钮，比较基线与 Triton。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="90"/>
        <source>Measuring the baseline, then Triton...</source>
        <translation>正在测量基线，然后是 Triton...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="109"/>
        <source>Baseline: {0:.2f} images/s at c={1}. Now Triton...</source>
        <translation>基线：并发 {1} 时 {0:.2f} 张/秒。现在测量 Triton...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="113"/>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="114"/>
        <source>The baseline completed no request; no ratio to show.</source>
        <translation>基线没有完成任何请求，无法显示比率。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="116"/>
        <source>Triton {0:.1f}x</source>
        <translation>Triton {0:.1f} 倍</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="117"/>
        <source> (slower here)</source>
        <translation>（此处更慢）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="119"/>
        <source>Same images, concurrency {0}: Triton {1:.2f} images/s (p50 {2:.0f} ms) vs baseline {3:.2f} images/s (p50 {4:.0f} ms){5}</source>
        <translation>相同图片，并发 {0}：Triton {1:.2f} 张/秒（p50 {2:.0f} 毫秒），基线 {3:.2f} 张/秒（p50 {4:.0f} 毫秒）{5}</translation>
    </message>
</context>
<context>
    <name>DocumentController</name>
    <message>
        <location filename="../../scanner_app/gui/document_controller.py" line="64"/>
        <location filename="../../scanner_app/gui/document_controller.py" line="87"/>
        <source>Opening {0}...</source>
        <translation>正在打开 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document_controller.py" line="101"/>
        <source>Nothing to export: no recognised document is open</source>
        <translation>无可导出内容：没有打开已识别的文档</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document_controller.py" line="103"/>
        <source>Exporting {0}...</source>
        <translation>正在导出 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document_controller.py" line="108"/>
        <source>Export of {0} failed: {1}</source>
        <translation>导出 {0} 失败：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document_controller.py" line="125"/>
        <source>{0}: waiting for the server ({1})</source>
        <translation>{0}：正在等待服务器（{1}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document_controller.py" line="128"/>
        <source>Cannot recognise {0}: no server is ready ({1}); see the Server tab</source>
        <translation>无法识别 {0}：没有就绪的服务器（{1}）；请查看“服务器”标签页</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document_controller.py" line="132"/>
        <source>Recognising {0}...</source>
        <translation>正在识别 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document_controller.py" line="146"/>
        <source>{0}: {1} lines (stored result)</source>
        <translation>{0}：{1} 行（已保存的结果）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/document_controller.py" line="156"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document_controller.py" line="157"/>
        <source>{0}: {1} in {2:.0f} ms</source>
        <translation>{0}：{1}，用时 {2:.0f} 毫秒</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/document_controller.py" line="163"/>
        <source>Exported %n file(s) to {0}</source>
        <translation>
            <numerusform>已导出 %n 个文件到 {0}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EditHistory</name>
    <message>
        <location filename="../../scanner_app/gui/edit_history.py" line="28"/>
        <source>edit of line {0}</source>
        <translation>第 {0} 行的修改</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/edit_history.py" line="34"/>
        <source>edit of {0}</source>
        <translation>“{0}”的修改</translation>
    </message>
</context>
<context>
    <name>ExportBar</name>
    <message>
        <location filename="../../scanner_app/gui/batch_export_bar.py" line="33"/>
        <source>Export as:</source>
        <translation>导出格式：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_export_bar.py" line="42"/>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_export_bar.py" line="43"/>
        <source>Write the batch&apos;s results into a folder you choose</source>
        <translation>将批次结果写入所选文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_export_bar.py" line="62"/>
        <source>Choose at least one format.</source>
        <translation>请至少选择一种格式。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch_export_bar.py" line="65"/>
        <source>Export the batch into</source>
        <translation>将批次导出到</translation>
    </message>
</context>
<context>
    <name>FieldsBatchModel</name>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="56"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="56"/>
        <source>Vendor</source>
        <translation>商家</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="56"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="56"/>
        <source>Number</source>
        <translation>号码</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="56"/>
        <source>Net</source>
        <translation>不含税金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="57"/>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="57"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="57"/>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="57"/>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
</context>
<context>
    <name>FieldsBatchTable</name>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="115"/>
        <source>Export sheet...</source>
        <translation>导出报销单...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="128"/>
        <source>Reading fields...</source>
        <translation>正在读取字段...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="133"/>
        <source>Fields could not be read: {0}</source>
        <translation>无法读取字段：{0}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="139"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n 页</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="140"/>
        <source>{0}, {1} to check</source>
        <translation>{0}，{1} 项待检查</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="152"/>
        <source>The edit could not be stored: {0}</source>
        <translation>无法保存修改：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="162"/>
        <source>Export reimbursement sheet</source>
        <translation>导出报销单</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="162"/>
        <source>Excel workbook (*.xlsx);;CSV (*.csv)</source>
        <translation>Excel 工作簿 (*.xlsx);;CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_batch_table.py" line="176"/>
        <source>Could not write {0}: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
</context>
<context>
    <name>FieldsPanel</name>
    <message>
        <location filename="../../scanner_app/gui/fields_panel.py" line="97"/>
        <source>Export sheet...</source>
        <translation>导出报销单...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_panel.py" line="98"/>
        <source>Write a reimbursement sheet (CSV or XLSX) with these fields</source>
        <translation>用这些字段生成报销单（CSV 或 XLSX）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_panel.py" line="113"/>
        <source>Receipt {0} of {1}</source>
        <translation>第 {0} 张收据，共 {1} 张</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_panel.py" line="138"/>
        <source>Fields could not be read: {0}</source>
        <translation>无法读取字段：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_panel.py" line="155"/>
        <source>No page</source>
        <translation>没有页面</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_panel.py" line="158"/>
        <source>{0}, {1} to check</source>
        <translation>{0}，{1} 项待检查</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/fields_panel.py" line="158"/>
        <source>%n field(s)</source>
        <translation>
            <numerusform>%n 个字段</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_panel.py" line="192"/>
        <source>Export reimbursement sheet</source>
        <translation>导出报销单</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_panel.py" line="193"/>
        <source>CSV (*.csv);;Excel workbook (*.xlsx)</source>
        <translation>CSV (*.csv);;Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_panel.py" line="214"/>
        <source>Could not write {0}: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
</context>
<context>
    <name>FieldsTableModel</name>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="46"/>
        <source>Vendor</source>
        <translation>商家</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="46"/>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="46"/>
        <source>Number</source>
        <translation>号码</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="47"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="47"/>
        <source>Net</source>
        <translation>不含税金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="47"/>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="48"/>
        <source>Tax rate</source>
        <translation>税率</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="49"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="49"/>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="49"/>
        <source>Rounding</source>
        <translation>舍入</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="50"/>
        <source>Invoice code</source>
        <translation>发票代码</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="50"/>
        <source>Total in words</source>
        <translation>大写金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="51"/>
        <source>Buyer</source>
        <translation>购买方</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="51"/>
        <source>Buyer tax ID</source>
        <translation>购买方税号</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="52"/>
        <source>Seller</source>
        <translation>销售方</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="52"/>
        <source>Seller tax ID</source>
        <translation>销售方税号</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="83"/>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="83"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="83"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="83"/>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields_model.py" line="105"/>
        <source>Read from: {0}</source>
        <translation>读取自：{0}</translation>
    </message>
</context>
<context>
    <name>FlagText</name>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="13"/>
        <source>required, but not found</source>
        <translation>必填，但未找到</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="14"/>
        <source>low confidence</source>
        <translation>置信度低</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="15"/>
        <source>net + tax does not equal the total</source>
        <translation>净额 + 税额不等于总额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="16"/>
        <source>not a date</source>
        <translation>不是日期</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="17"/>
        <source>the tax rate does not match net and tax</source>
        <translation>税率与净额和税额不符</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="18"/>
        <source>the amount in words does not match the total</source>
        <translation>大写金额与总额不符</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="19"/>
        <source>the items&apos; tax does not add up to the tax</source>
        <translation>各项税额之和不等于税额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="20"/>
        <source>the items do not add up to the net amount</source>
        <translation>各项金额之和不等于净额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="25"/>
        <source>item {0}: quantity x price does not equal the amount</source>
        <translation>第 {0} 项：数量 × 单价不等于金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="28"/>
        <source>item {0}: the tax does not match the rate</source>
        <translation>第 {0} 项：税额与税率不符</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="31"/>
        <source>not a valid taxpayer number</source>
        <translation>不是有效的纳税人识别号</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="33"/>
        <source>not an amount</source>
        <translation>不是金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="35"/>
        <source>corrected from the QR code</source>
        <translation>已按二维码更正</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/flag_text.py" line="37"/>
        <source>the items do not add up</source>
        <translation>各项之和不符</translation>
    </message>
</context>
<context>
    <name>FrameGrabber</name>
    <message>
        <location filename="../../scanner_app/gui/camera_source.py" line="122"/>
        <source>video file {path}</source>
        <translation>视频文件 {path}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_source.py" line="123"/>
        <source>camera {index}</source>
        <translation>摄像头 {index}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_source.py" line="129"/>
        <source>{path}: no such file</source>
        <translation>{path}：文件不存在</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_source.py" line="132"/>
        <source>not a video OpenCV can read (unknown container or codec)</source>
        <translation>不是 OpenCV 能读取的视频（未知的容器或编码）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_source.py" line="135"/>
        <source>it is missing, busy in another program, or access was refused</source>
        <translation>设备不存在、被其他程序占用，或访问被拒绝</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_source.py" line="138"/>
        <source>Cannot open {source}: {cause}</source>
        <translation>无法打开 {source}：{cause}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera_source.py" line="170"/>
        <source>{source} delivered no frame</source>
        <translation>{source} 没有输出画面</translation>
    </message>
</context>
<context>
    <name>HistoryActions</name>
    <message>
        <location filename="../../scanner_app/gui/edit_history.py" line="60"/>
        <source>&amp;Undo {0}</source>
        <translation>撤销{0}(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/edit_history.py" line="60"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/edit_history.py" line="61"/>
        <source>&amp;Redo {0}</source>
        <translation>重做{0}(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/edit_history.py" line="61"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
</context>
<context>
    <name>IssuesPanel</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="32"/>
        <source>Errors by cause</source>
        <translation>按原因分类的错误</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="34"/>
        <source>Where the time goes</source>
        <translation>时间花在哪里</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="62"/>
        <source>{0}: no request completed in the {1:.1f} s measured; make the duration longer than one request takes, or lower the concurrency.</source>
        <translation>{0}：在测量的 {1:.1f} 秒内没有请求完成；请把时长设得比单个请求更长，或降低并发。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="85"/>
        <source>{0} responses differed from the golden results · {1} requests failed</source>
        <translation>{0} 个响应与基准结果不同 · {1} 个请求失败</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="89"/>
        <source>No golden-check mismatches, no errors</source>
        <translation>基准校验无差异，无错误</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="95"/>
        <source>{0} x {1}</source>
        <translation>{0} × {1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="97"/>
        <source>... and {0} more causes</source>
        <translation>...以及另外 {0} 种原因</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="102"/>
        <source>{0}: requests wait {1:.0f} ms in its queue for {2:.0f} ms of compute - this step is the bottleneck (give it more instances, or send fewer requests at once).</source>
        <translation>{0}：请求在队列中等待 {1:.0f} 毫秒，计算仅需 {2:.0f} 毫秒——此步骤是瓶颈（增加实例数，或减少同时发送的请求）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="107"/>
        <source>{0}: {1:.2f} items per execution, sent together by its caller (dynamic batching is off).</source>
        <translation>{0}：每次执行 {1:.2f} 项，由调用方一起发送（动态批处理已关闭）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="110"/>
        <source>{0}: the dynamic batcher merged {1:.2f} requests per execution on average. On a CPU a batch costs about as much per item as single requests, so batching adds waiting, not speed (compare a run with it off); on a GPU it pays.</source>
        <translation>{0}：动态批处理平均每次执行合并 {1:.2f} 个请求。在 CPU 上，批处理中每项的开销与单个请求相当，因此批处理只会增加等待而不会提速（可与关闭时的运行对比）；在 GPU 上则有收益。</translation>
    </message>
</context>
<context>
    <name>MainActions</name>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="62"/>
        <source>&amp;Open...</source>
        <translation>打开(&amp;O)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="63"/>
        <source>Open &amp;folder as batch...</source>
        <translation>打开文件夹作为批次(&amp;F)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="64"/>
        <source>&amp;Paste image</source>
        <translation>粘贴图片(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="65"/>
        <source>Capture from &amp;camera...</source>
        <translation>从摄像头拍摄(&amp;C)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="66"/>
        <source>Capture &amp;screen region</source>
        <translation>截取屏幕区域(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="67"/>
        <source>Sc&amp;an...</source>
        <translation>扫描(&amp;A)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="68"/>
        <source>&amp;Export...</source>
        <translation>导出(&amp;E)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="69"/>
        <source>&amp;Recognise again</source>
        <translation>重新识别(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="70"/>
        <source>Pre&amp;vious page</source>
        <translation>上一页(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="71"/>
        <source>&amp;Next page</source>
        <translation>下一页(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="72"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="73"/>
        <source>&amp;Copy selected lines</source>
        <translation>复制所选行(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="74"/>
        <source>&amp;Document</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="75"/>
        <source>&amp;Batch</source>
        <translation>批处理(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="76"/>
        <source>&amp;Server</source>
        <translation>服务器(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="77"/>
        <source>S&amp;tress</source>
        <translation>压力测试(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="78"/>
        <source>&amp;Fields</source>
        <translation>字段(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="79"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="80"/>
        <source>&amp;About scanner-app</source>
        <translation>关于 scanner-app(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="91"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="93"/>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="97"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="104"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="113"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_actions.py" line="116"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="126"/>
        <source>scanner-app - receipt and invoice OCR</source>
        <translation>scanner-app - 收据与发票文字识别</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="138"/>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="139"/>
        <source>Batch</source>
        <translation>批处理</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="139"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="140"/>
        <source>Stress</source>
        <translation>压力测试</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="142"/>
        <source>Lines</source>
        <translation>文本行</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="143"/>
        <source>Fields</source>
        <translation>字段</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/main_window.py" line="258"/>
        <source>Copied %n line(s)</source>
        <translation>
            <numerusform>已复制 %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/main_window.py" line="263"/>
        <source>Copied all %n line(s)</source>
        <translation>
            <numerusform>已复制全部 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="179"/>
        <source>Open images or PDFs</source>
        <translation>打开图片或 PDF</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="137"/>
        <source>No recent files</source>
        <translation>没有最近的文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="180"/>
        <source>Images and PDFs ({0});;All files (*)</source>
        <translation>图片和 PDF ({0});;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="185"/>
        <source>Open a folder as a batch</source>
        <translation>打开文件夹作为批次</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="199"/>
        <source>The clipboard holds no image</source>
        <translation>剪贴板中没有图片</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="205"/>
        <source>Camera capture is not available</source>
        <translation>摄像头拍摄不可用</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="222"/>
        <source>Screen capture is not available</source>
        <translation>屏幕截取不可用</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="230"/>
        <source>Export the document into</source>
        <translation>将文档导出到</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="286"/>
        <source>No translation for {0} is installed</source>
        <translation>未安装 {0} 的翻译</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="296"/>
        <source>About scanner-app</source>
        <translation>关于 scanner-app</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/main_window.py" line="297"/>
        <source>scanner-app {0}
Receipt and invoice OCR with a PP-OCR pipeline on NVIDIA Triton.</source>
        <translation>scanner-app {0}
基于 NVIDIA Triton 上 PP-OCR 流水线的收据与发票文字识别。</translation>
    </message>
</context>
<context>
    <name>ModelFactsModel</name>
    <message>
        <location filename="../../scanner_app/gui/server_models_model.py" line="38"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_models_model.py" line="38"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_models_model.py" line="38"/>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_models_model.py" line="38"/>
        <source>max_batch_size</source>
        <translation>max_batch_size</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_models_model.py" line="39"/>
        <source>Dynamic batching</source>
        <translation>动态批处理</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_models_model.py" line="39"/>
        <source>Instance groups</source>
        <translation>实例组</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_models_model.py" line="74"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_models_model.py" line="74"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_models_model.py" line="76"/>
        <source>default</source>
        <translation>默认</translation>
    </message>
</context>
<context>
    <name>RegionOverlay</name>
    <message>
        <location filename="../../scanner_app/gui/screen_capture.py" line="63"/>
        <source>Drag a rectangle around what to read; Esc cancels</source>
        <translation>拖出矩形框选要识别的内容；按 Esc 取消</translation>
    </message>
</context>
<context>
    <name>ResultsPanel</name>
    <message>
        <location filename="../../scanner_app/gui/results_panel.py" line="100"/>
        <source>Filter lines</source>
        <translation>筛选行</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/results_panel.py" line="101"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
</context>
<context>
    <name>ResultsTableModel</name>
    <message>
        <location filename="../../scanner_app/gui/results_model.py" line="41"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/results_model.py" line="41"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/results_model.py" line="41"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/results_model.py" line="51"/>
        <source>edited</source>
        <translation>已修改</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/results_model.py" line="55"/>
        <source>Corrected by hand; the server read &quot;{0}&quot; ({1:.3f})</source>
        <translation>已手动更正；服务器识别为“{0}”（{1:.3f}）</translation>
    </message>
</context>
<context>
    <name>RollingChart</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="43"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="45"/>
        <source>Pipeline (ensemble)</source>
        <translation>完整流水线（ensemble）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="45"/>
        <source>Detection model only</source>
        <translation>仅检测模型</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="46"/>
        <source>Recognition model only</source>
        <translation>仅识别模型</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="47"/>
        <source>Baseline (serial Python server)</source>
        <translation>基线（串行 Python 服务器）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="51"/>
        <source>Generated receipts</source>
        <translation>生成的收据</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="54"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="56"/>
        <source>a folder of images or PDFs</source>
        <translation>包含图片或 PDF 的文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="57"/>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="61"/>
        <source>One level (8), a list (1,2,4,8) or a doubling range (1-16)</source>
        <translation>单个级别（8）、列表（1,2,4,8）或倍增范围（1-16）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="62"/>
        <source>Stop after a number of requests</source>
        <translation>达到请求数后停止</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="63"/>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="68"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="65"/>
        <source>Open loop at</source>
        <translation>开环速率</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="67"/>
        <source>Poisson arrivals</source>
        <translation>泊松到达</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="69"/>
        <source>Until stable (last 3 windows within ±10 %, at most 10)</source>
        <translation>直到稳定（最近 3 个窗口相差 ±10% 以内，最多 10 个）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="70"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="71"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="85"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="89"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="95"/>
        <source>Concurrency or sweep</source>
        <translation>并发或扫描范围</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="96"/>
        <source>Duration per level</source>
        <translation>每级时长</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="105"/>
        <source>Rate</source>
        <translation>速率</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="106"/>
        <source>Warm-up</source>
        <translation>预热</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="120"/>
        <source>Choose a folder of images, or use generated receipts.</source>
        <translation>请选择图片文件夹，或使用生成的收据。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="152"/>
        <source>Images for the stress run</source>
        <translation>压力测试所用图片</translation>
    </message>
</context>
<context>
    <name>RunsTableModel</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="31"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="31"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="31"/>
        <source>Concurrency</source>
        <translation>并发</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="32"/>
        <source>Images/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="32"/>
        <source>p50 ms</source>
        <translation>p50 毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="32"/>
        <source>p95 ms</source>
        <translation>p95 毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="33"/>
        <source>p99 ms</source>
        <translation>p99 毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="33"/>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="33"/>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="34"/>
        <source>Golden mismatches</source>
        <translation>基准不一致</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="34"/>
        <source>Avg batch</source>
        <translation>平均批大小</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="35"/>
        <source>Queue/compute ms</source>
        <translation>排队/计算 毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="35"/>
        <source>CPU/GPU %</source>
        <translation>CPU/GPU %</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="36"/>
        <source>Stable</source>
        <translation>稳定</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="106"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="106"/>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>RunsView</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="128"/>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="152"/>
        <source>Select two runs to compare them.</source>
        <translation>选择两次运行进行比较。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="162"/>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="164"/>
        <source>{0} vs {1}: {2} the throughput ({3:.2f} vs {4:.2f} images/s) · p50 {5:.0f} vs {6:.0f} ms · p99 {7:.0f} vs {8:.0f} ms</source>
        <translation>{0} 对比 {1}：吞吐量为 {2}（{3:.2f} 对 {4:.2f} 张/秒）· p50 {5:.0f} 对 {6:.0f} 毫秒 · p99 {7:.0f} 对 {8:.0f} 毫秒</translation>
    </message>
</context>
<context>
    <name>ScanDialog</name>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="91"/>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="105"/>
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="93"/>
        <source>A scanner found, or an eSCL address: http://HOST:PORT/eSCL</source>
        <translation>已找到的扫描仪，或 eSCL 地址：http://HOST:PORT/eSCL</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="96"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="99"/>
        <source>Both sides (duplex); blank back sides are dropped</source>
        <translation>双面（双工）；空白背面将被丢弃</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="100"/>
        <source>No preview</source>
        <translation>无预览</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="102"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="106"/>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="152"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="111"/>
        <source>Scanner</source>
        <translation>扫描仪</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="112"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="114"/>
        <source>Resolution</source>
        <translation>分辨率</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="115"/>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="191"/>
        <source>Colour</source>
        <translation>彩色</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="152"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="159"/>
        <source>Looking for scanners...</source>
        <translation>正在查找扫描仪...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="174"/>
        <source>No scanner found; type a network scanner&apos;s address (http://HOST/eSCL)</source>
        <translation>未找到扫描仪；请输入网络扫描仪地址（http://HOST/eSCL）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="190"/>
        <source>Flatbed</source>
        <translation>平板</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="190"/>
        <source>Document feeder</source>
        <translation>自动进纸器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="191"/>
        <source>Grey</source>
        <translation>灰度</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="191"/>
        <source>Black and white</source>
        <translation>黑白</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="208"/>
        <source>Previewing...</source>
        <translation>正在预览...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="234"/>
        <source>Scanning page 1...</source>
        <translation>正在扫描第 1 页...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="240"/>
        <source>Cancelling...</source>
        <translation>正在取消...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="267"/>
        <source>Scanning page {0}...</source>
        <translation>正在扫描第 {0} 页...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="271"/>
        <source>Blank back side dropped ({0} so far)</source>
        <translation>已丢弃空白背面（目前共 {0} 张）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="279"/>
        <source>{0} pages scanned, {1} blank back sides dropped</source>
        <translation>已扫描 {0} 页，丢弃 {1} 张空白背面</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="282"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/scan_dialog.py" line="285"/>
        <source>The pages scanned before are kept and will be read.</source>
        <translation>之前扫描的页面会保留并被识别。</translation>
    </message>
</context>
<context>
    <name>ScreenRegionCapture</name>
    <message>
        <location filename="../../scanner_app/gui/screen_capture.py" line="158"/>
        <source>The screen could not be captured (the desktop does not allow it)</source>
        <translation>无法截取屏幕（桌面环境不允许）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/screen_capture.py" line="189"/>
        <source>The screen region could not be saved: {error}</source>
        <translation>无法保存屏幕区域：{error}</translation>
    </message>
</context>
<context>
    <name>ServerConnection</name>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="62"/>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="119"/>
        <source>No server configured (see the Server tab)</source>
        <translation>未配置服务器（请查看“服务器”标签页）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="158"/>
        <source>Starting the embedded Triton server...</source>
        <translation>正在启动内置 Triton 服务器...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="169"/>
        <source>Stopping the embedded server...</source>
        <translation>正在停止内置服务器...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="187"/>
        <source>Disconnected</source>
        <translation>已断开</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="252"/>
        <source>Connecting to {0}...</source>
        <translation>正在连接 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="280"/>
        <source>Embedded Triton started on {0} (version {1})</source>
        <translation>内置 Triton 已在 {0} 启动（版本 {1}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="282"/>
        <source>Connected to Triton {0} at {1}</source>
        <translation>已连接到 {1} 上的 Triton {0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="284"/>
        <source> - down: {0}</source>
        <translation> - 不可用：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="302"/>
        <source>Server {0} is down: {1}</source>
        <translation>服务器 {0} 不可用：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="303"/>
        <source>Server {0}: {1}</source>
        <translation>服务器 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="317"/>
        <source>The embedded server could not start: {0}</source>
        <translation>内置服务器无法启动：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="328"/>
        <source>Stopping the embedded server failed: {0}</source>
        <translation>停止内置服务器失败：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection.py" line="334"/>
        <source>Embedded server stopped</source>
        <translation>内置服务器已停止</translation>
    </message>
</context>
<context>
    <name>ServerPanel</name>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="59"/>
        <source>Endpoints</source>
        <translation>端点</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="61"/>
        <source>Triton gRPC endpoints, one per line (host:port). Leave empty to use the embedded server.</source>
        <translation>Triton gRPC 端点，每行一个（主机:端口）。留空则使用内置服务器。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="70"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="72"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="83"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="102"/>
        <source>Embedded server</source>
        <translation>内置服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="105"/>
        <source>Start embedded server</source>
        <translation>启动内置服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="107"/>
        <source>Stop embedded server</source>
        <translation>停止内置服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="127"/>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="136"/>
        <source>Applied.</source>
        <translation>已应用。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="144"/>
        <source>No endpoint to test: enter one, or start the embedded server.</source>
        <translation>没有可测试的端点：请输入一个，或启动内置服务器。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="153"/>
        <source>Testing {0}...</source>
        <translation>正在测试 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="161"/>
        <source>Test failed: {0}</source>
        <translation>测试失败：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="165"/>
        <source>{0} of {1} endpoints serve the OCR pipeline.</source>
        <translation>{1} 个端点中有 {0} 个提供 OCR 流水线。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="167"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="167"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="170"/>
        <source>{0}: live {1}, ready {2}</source>
        <translation>{0}：存活 {1}，就绪 {2}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="173"/>
        <source>, Triton {0}</source>
        <translation>，Triton {0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server_panel.py" line="185"/>
        <source>Server version: {0}</source>
        <translation>服务器版本：{0}</translation>
    </message>
</context>
<context>
    <name>ShortcutsPage</name>
    <message>
        <location filename="../../scanner_app/gui/shortcuts_page.py" line="26"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/shortcuts_page.py" line="28"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/shortcuts_page.py" line="28"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>StressController</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/controller.py" line="96"/>
        <source> (stopped)</source>
        <translation>（已停止）</translation>
    </message>
</context>
<context>
    <name>StressDashboard</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="47"/>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="184"/>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="53"/>
        <source>Export CSV (perf_analyzer)...</source>
        <translation>导出 CSV（perf_analyzer 格式）...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="54"/>
        <source>Export JSON...</source>
        <translation>导出 JSON...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="55"/>
        <source>Clear runs</source>
        <translation>清除运行记录</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="130"/>
        <source>The server is not ready: {0}</source>
        <translation>服务器未就绪：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="142"/>
        <source>The demo needs a ready Triton server: {0}</source>
        <translation>演示需要就绪的 Triton 服务器：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="152"/>
        <source>A run is in progress; stop it first.</source>
        <translation>有运行正在进行，请先停止。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="179"/>
        <source>Preparing images: {0}...</source>
        <translation>正在准备图片：{0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="180"/>
        <source>Starting the baseline server...</source>
        <translation>正在启动基线服务器...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="181"/>
        <source>Taking golden results at concurrency 1 ({0})...</source>
        <translation>正在以并发 1 获取基准结果（{0}）...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="182"/>
        <source>Running {0}</source>
        <translation>正在运行 {0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="183"/>
        <source>Stopping...</source>
        <translation>正在停止...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="203"/>
        <source>warming up</source>
        <translation>预热中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="203"/>
        <source>measuring</source>
        <translation>测量中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="204"/>
        <source>Running {0}: {1}, {2} responses, {3:.0f} s</source>
        <translation>正在运行 {0}：{1}，{2} 个响应，{3:.0f} 秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="222"/>
        <source>The run failed: {0}</source>
        <translation>运行失败：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="247"/>
        <source>No finished run to export yet.</source>
        <translation>尚无已完成的运行可导出。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="249"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="249"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="250"/>
        <source>Export runs</source>
        <translation>导出运行记录</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="256"/>
        <source>Could not export to {0}: {1}</source>
        <translation>无法导出到 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="258"/>
        <source>Exported to {0}</source>
        <translation>已导出到 {0}</translation>
    </message>
</context>
<context>
    <name>TlsFields</name>
    <message>
        <location filename="../../scanner_app/gui/tls_fields.py" line="20"/>
        <source>CA certificate (PEM):</source>
        <translation>CA 证书（PEM）：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/tls_fields.py" line="21"/>
        <source>Client certificate (PEM):</source>
        <translation>客户端证书（PEM）：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/tls_fields.py" line="22"/>
        <source>Client key (PEM):</source>
        <translation>客户端私钥（PEM）：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/tls_fields.py" line="26"/>
        <source>none (plain gRPC unless a file is set)</source>
        <translation>无（未设置文件时使用明文 gRPC）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/tls_fields.py" line="27"/>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/tls_fields.py" line="38"/>
        <source>Choose a PEM file</source>
        <translation>选择 PEM 文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/tls_fields.py" line="37"/>
        <source>PEM files (*.pem *.crt *.key);;All files (*)</source>
        <translation>PEM 文件 (*.pem *.crt *.key);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <location filename="../../scanner_app/gui/units.py" line="10"/>
        <source>{0:.2f} images/s</source>
        <translation>{0:.2f} 张图像/秒</translation>
    </message>
</context>
<context>
    <name>ViewerPanel</name>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="75"/>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="75"/>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="75"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="76"/>
        <source>100%</source>
        <translation>100%</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="76"/>
        <source>Rotate left</source>
        <translation>向左旋转</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="77"/>
        <source>Rotate right</source>
        <translation>向右旋转</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="77"/>
        <source>Boxes</source>
        <translation>文本框</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="78"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="78"/>
        <source>Scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="78"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="79"/>
        <source>Upright</source>
        <translation>摆正</translation>
    </message>
</context>
<context>
    <name>WatchBar</name>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="63"/>
        <source>Watch a folder...</source>
        <translation>监视文件夹...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="64"/>
        <source>Read every image or PDF that appears in a folder, once (a copier&apos;s scan-to-folder)</source>
        <translation>读取文件夹中出现的每个图像或 PDF，各一次（复印机的“扫描到文件夹”）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="67"/>
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="69"/>
        <source>Not watching a folder.</source>
        <translation>未监视文件夹。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="90"/>
        <source>Cannot watch {0}: {1}</source>
        <translation>无法监视 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="93"/>
        <source>Starting to watch {0}...</source>
        <translation>开始监视 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="103"/>
        <source>Stopping: waiting for the pages in flight...</source>
        <translation>正在停止：等待处理中的页面...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="115"/>
        <source>Folder to watch</source>
        <translation>要监视的文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="119"/>
        <source>Where the results go</source>
        <translation>结果保存位置</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="129"/>
        <source>Cannot watch: {0}</source>
        <translation>无法监视：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="138"/>
        <source>Stopped watching {0}: {1} read, {2} failed.</source>
        <translation>已停止监视 {0}：已读取 {1} 个，失败 {2} 个。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="150"/>
        <source>Watching {0} ({1}): {2} read, {3} failed, {4} read before</source>
        <translation>正在监视 {0}（{1}）：已读取 {2} 个，失败 {3} 个，之前已读取 {4} 个</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/watch_bar.py" line="153"/>
        <source>, {0} skipped</source>
        <translation>，跳过 {0} 个</translation>
    </message>
</context>
<context>
    <name>_000.self</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="66"/>
        <source> req/s</source>
        <translation> 请求/秒</translation>
    </message>
</context>
</TS>
